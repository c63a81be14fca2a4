import { z } from 'zod';
import { emailAddressSchema } from '../platform/schemas.js';

// Signing in to the portal by an emailed code: our extension (Polar's SDK 0.33.2 has no call for it).

const organizationSlug = z.string().regex(/^[a-z0-9-]{1,128}$/, 'Not an organization slug.');

export const portalSignInRequestSchema = z.strictObject({
  organization_slug: organizationSlug,
  email: emailAddressSchema('Enter the email address you bought with.').transform((email) =>
    email.toLowerCase(),
  ),
});
export type PortalSignInRequest = z.infer<typeof portalSignInRequestSchema>;

export const portalSignInVerifySchema = portalSignInRequestSchema.extend({
  code: z.string().regex(/^[0-9]{6}$/, 'Enter the 6 digits from the email.'),
});
export type PortalSignInVerify = z.infer<typeof portalSignInVerifySchema>;

export const portalSignInSchema = z.object({
  token: z.string(),
  expires_at: z.iso.datetime({ offset: true }),
});
export type PortalSignIn = z.infer<typeof portalSignInSchema>;

/** What the portal reads of its own session (Polar's `customer-session/introspect`). */
export const customerSessionIntrospectionSchema = z.object({
  expires_at: z.iso.datetime({ offset: true }),
  return_url: z.string().nullable(),
});
export type CustomerSessionIntrospection = z.infer<typeof customerSessionIntrospectionSchema>;
