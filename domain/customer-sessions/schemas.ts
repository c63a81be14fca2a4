import { z } from 'zod';
import { returnUrlSchema } from '../checkout-links/schemas.js';
import { customerSchema } from '../customers/schemas.js';
import { emailAddressSchema, offUntilBuilt, textSchema } from '../platform/schemas.js';

const datetime = z.iso.datetime({ offset: true });

// The seller's customer sessions (`POST /v1/customer-sessions`): a token for the customer's portal.

const customerSessionOptions = {
  /** The seller's page the portal links back to. */
  return_url: returnUrlSchema.nullable().optional(),
  member_id: offUntilBuilt(z.uuid(), [], 'Members'),
  external_member_id: offUntilBuilt(textSchema({ min: 1, max: 255 }), [], 'Members'),
};
const externalCustomerIdSchema = textSchema({ min: 1, max: 255 });

/**
 * By our id or by the seller's own, matched by shape. The seller's id is `external_customer_id`
 * in @polar-sh/sdk 0.48.1 and `customer_external_id` in 0.33.2; both are read.
 */
export const customerSessionCreateSchema = z.union([
  z.strictObject({ customer_id: z.uuid({ message: 'Not a valid customer id.' }), ...customerSessionOptions }),
  z.strictObject({ external_customer_id: externalCustomerIdSchema, ...customerSessionOptions }),
  z.strictObject({ customer_external_id: externalCustomerIdSchema, ...customerSessionOptions }),
]);
export type CustomerSessionCreate = z.infer<typeof customerSessionCreateSchema>;

/** `token` is shown once, at creation: only its hash is kept. */
export const customerSessionSchema = z.object({
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  token: z.string(),
  expires_at: datetime,
  return_url: z.string().nullable(),
  customer_portal_url: z.string(),
  customer_id: z.uuid(),
  customer: customerSchema,
});
export type CustomerSession = z.infer<typeof customerSessionSchema>;

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

// What a portal token says about itself (Polar's `customer-session/introspect` and `/user`).

export const customerSessionIntrospectionSchema = z.object({
  expires_at: z.iso.datetime({ offset: true }),
  /** Where the seller's app asked the portal to send the buyer back (`customerSessions.create`). */
  return_url: z.string().nullable(),
});
export type CustomerSessionIntrospection = z.infer<typeof customerSessionIntrospectionSchema>;

export const portalAuthenticatedUserSchema = z.object({
  /** `customer`: members (a team customer's people) are not sold yet. */
  type: z.literal('customer'),
  name: z.string().nullable(),
  email: z.string(),
  customer_id: z.uuid(),
  member_id: z.uuid().nullable(),
  role: z.string().nullable(),
});
export type PortalAuthenticatedUser = z.infer<typeof portalAuthenticatedUserSchema>;

// Changing the signed-in customer's email address (Polar's `customers/me/email-update`).

export const customerEmailUpdateRequestSchema = z.strictObject({
  email: emailAddressSchema('Enter the new email address, like name@example.com.').transform((email) =>
    email.toLowerCase(),
  ),
});
export type CustomerEmailUpdateRequest = z.infer<typeof customerEmailUpdateRequestSchema>;

/** The token of the emailed link; its shape is checked by the service, which answers 401 for any bad one. */
const emailUpdateToken = textSchema({ min: 1, max: 128 });

export const customerEmailUpdateCheckQuerySchema = z.object({ token: emailUpdateToken });

export const customerEmailUpdateVerifySchema = z.strictObject({ token: emailUpdateToken });
export type CustomerEmailUpdateVerify = z.infer<typeof customerEmailUpdateVerifySchema>;

/** A new session of the customer, with the new address. */
export const customerEmailUpdateVerifiedSchema = z.object({ token: z.string() });
