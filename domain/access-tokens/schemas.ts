import { z } from 'zod';
import { nameSchema, textSchema } from '../platform/schemas.js';
import { parseDurationSeconds } from './rules.js';

const RESOURCES = [
  'organizations',
  'products',
  'benefits',
  'files',
  'checkouts',
  'checkout_links',
  'orders',
  'refunds',
  'subscriptions',
  'customers',
  'customer_meters',
  'customer_sessions',
  'customer_seats',
  'discounts',
  'license_keys',
  'meters',
  'metrics',
  'events',
  'webhooks',
  'custom_fields',
  'payments',
  'disputes',
] as const;

/** Polar-style scopes (`<resource>:read|write`). Stored with the token; enforced per route as resources land. */
export const ACCESS_TOKEN_SCOPES = RESOURCES.flatMap((resource) => [
  `${resource}:read`,
  `${resource}:write`,
]) as [string, ...string[]];

export const accessTokenScopeSchema = z.enum(ACCESS_TOKEN_SCOPES);

export const accessTokenSchema = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  scopes: z.array(z.string()),
  expires_at: z.iso.datetime({ offset: true }).nullable(),
  comment: z.string(),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
  organization_id: z.uuid(),
});

/** The one answer that carries the token itself. */
export const createdAccessTokenSchema = z.object({
  organization_access_token: accessTokenSchema,
  token: z.string(),
});

const MAX_LIFETIME_SECONDS = 10 * 365 * 24 * 60 * 60;

/** Seconds, or an ISO-8601 duration (`P30D`, `PT12H`), as Polar's `timedelta` accepts. */
export const expiresInSchema = z
  .union([z.number().int().positive(), textSchema({ max: 64 })])
  .transform((value, context) => {
    const seconds = typeof value === 'number' ? value : parseDurationSeconds(value);
    if (seconds === null || seconds <= 0 || seconds > MAX_LIFETIME_SECONDS) {
      context.addIssue({
        code: 'custom',
        message: 'Expected a positive duration of at most 10 years (seconds or ISO 8601).',
      });
      return z.NEVER;
    }
    return seconds;
  });

export const accessTokenCreateSchema = z.strictObject({
  organization_id: z.uuid(),
  comment: nameSchema(255),
  expires_in: expiresInSchema.nullable().optional(),
  scopes: z.array(accessTokenScopeSchema).default([]),
});

/** Polar's OrganizationAccessTokenUpdate: a field left out (or null) stays as it is. */
export const accessTokenUpdateSchema = z.strictObject({
  comment: nameSchema(255).nullable().optional(),
  scopes: z.array(accessTokenScopeSchema).nullable().optional(),
});

export const accessTokenIdParamsSchema = z.object({
  id: z.uuid({ message: 'Input should be a valid UUID' }),
});

export type AccessToken = z.infer<typeof accessTokenSchema>;
export type AccessTokenCreate = z.infer<typeof accessTokenCreateSchema>;
export type AccessTokenUpdate = z.infer<typeof accessTokenUpdateSchema>;
