import { z } from 'zod';
import { nameSchema, textSchema, TEXT_MAX_LENGTH, withTextRule } from '../platform/schemas.js';

/**
 * Polar's `Scope` enum (@polar-sh/sdk 0.48.1 `models/components/scope.ts`), in its order, and
 * `disputes:write`, which Polar's later documents add for `disputes.accept`.
 */
export const OAUTH2_SCOPES = [
  'openid',
  'profile',
  'email',
  'user:read',
  'user:write',
  'organizations:read',
  'organizations:write',
  'custom_fields:read',
  'custom_fields:write',
  'discounts:read',
  'discounts:write',
  'checkout_links:read',
  'checkout_links:write',
  'checkouts:read',
  'checkouts:write',
  'transactions:read',
  'transactions:write',
  'payouts:read',
  'payouts:write',
  'products:read',
  'products:write',
  'benefits:read',
  'benefits:write',
  'events:read',
  'events:write',
  'meters:read',
  'meters:write',
  'files:read',
  'files:write',
  'subscriptions:read',
  'subscriptions:write',
  'customers:read',
  'customers:write',
  'members:read',
  'members:write',
  'wallets:read',
  'wallets:write',
  'disputes:read',
  'disputes:write',
  'customer_meters:read',
  'customer_sessions:write',
  'member_sessions:write',
  'customer_seats:read',
  'customer_seats:write',
  'orders:read',
  'orders:write',
  'refunds:read',
  'refunds:write',
  'payments:read',
  'metrics:read',
  'metrics:write',
  'webhooks:read',
  'webhooks:write',
  'license_keys:read',
  'license_keys:write',
  'customer_portal:read',
  'customer_portal:write',
  'notifications:read',
  'notifications:write',
  'notification_recipients:read',
  'notification_recipients:write',
  'organization_access_tokens:read',
  'organization_access_tokens:write',
] as const;
export type OAuth2Scope = (typeof OAUTH2_SCOPES)[number];

const RESOURCE_WORDS: Record<string, string> = {
  user: 'your user account',
  organizations: 'organizations',
  custom_fields: 'custom fields',
  discounts: 'discounts',
  checkout_links: 'checkout links',
  checkouts: 'checkouts',
  transactions: 'transactions',
  payouts: 'payouts',
  products: 'products',
  benefits: 'benefits',
  events: 'usage events',
  meters: 'meters',
  files: 'files',
  subscriptions: 'subscriptions',
  customers: 'customers',
  members: 'members',
  wallets: 'wallets',
  disputes: 'disputes',
  customer_meters: "customers' meter balances",
  customer_sessions: 'customer portal sessions',
  member_sessions: 'member sessions',
  customer_seats: 'customer seats',
  orders: 'orders',
  refunds: 'refunds',
  payments: 'payments',
  metrics: 'metrics',
  webhooks: 'webhook endpoints',
  license_keys: 'license keys',
  customer_portal: 'the customer portal',
  notifications: 'notifications',
  notification_recipients: 'notification recipients',
  organization_access_tokens: 'organization access tokens',
};

/** What a scope lets the app do, in words for the person asked to allow it (the consent page). */
export function scopeDisplayName(scope: OAuth2Scope): string {
  if (scope === 'openid') return 'Know who you are';
  if (scope === 'profile') return 'See your name';
  if (scope === 'email') return 'See your email address';
  const [resource = '', access] = scope.split(':');
  const words = RESOURCE_WORDS[resource] ?? resource.replaceAll('_', ' ');
  return access === 'write' ? `Create, change and delete ${words}` : `See ${words}`;
}

export const SCOPE_DISPLAY_NAMES: Record<string, string> = Object.fromEntries(
  OAUTH2_SCOPES.map((scope) => [scope, scopeDisplayName(scope)]),
);

export const SUB_TYPES = ['user', 'organization'] as const;
export type SubType = (typeof SUB_TYPES)[number];
export const subTypeSchema = z.enum(SUB_TYPES);

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const urlSchema = withTextRule(z.url(), { max: TEXT_MAX_LENGTH.url });

/** Polar's OAuth2ClientConfiguration (RFC 7591 §2 client metadata), with Polar's defaults. */
export const clientConfigurationSchema = z.strictObject({
  redirect_uris: z.array(urlSchema).min(1).max(20),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).default('client_secret_post'),
  grant_types: z.array(z.enum(GRANT_TYPES)).default(['authorization_code', 'refresh_token']),
  response_types: z.array(z.literal('code')).default(['code']),
  /** Space-separated scopes the client may ask for; every scope unless given. */
  scope: textSchema({ max: 4096 }).default(OAUTH2_SCOPES.join(' ')),
  client_name: nameSchema(256),
  client_uri: urlSchema.nullable().optional(),
  logo_uri: urlSchema.nullable().optional(),
  tos_uri: urlSchema.nullable().optional(),
  policy_uri: urlSchema.nullable().optional(),
  default_sub_type: subTypeSchema.default('user'),
});

/** RFC 7592 §2.2: the whole configuration again, with the client's own id. */
export const clientConfigurationUpdateSchema = clientConfigurationSchema.extend({
  client_id: textSchema({ max: 128 }),
});

export type ClientConfiguration = z.output<typeof clientConfigurationSchema>;
export type ClientConfigurationUpdate = z.output<typeof clientConfigurationUpdateSchema>;

export const clientIdParamsSchema = z.object({ client_id: textSchema({ max: 128 }) });

const timestamp = z.iso.datetime({ offset: true });

/** A registered client as RFC 7591 §3.2.1 answers it: its metadata and the registration's details. */
export const clientSchema = z.object({
  created_at: timestamp,
  modified_at: timestamp.nullable(),
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  /** 0: the secret never expires (RFC 7591 §3.2.1). */
  client_secret_expires_at: z.number().int(),
  registration_client_uri: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  scope: z.string(),
  client_name: z.string(),
  client_uri: z.string().nullable(),
  logo_uri: z.string().nullable(),
  tos_uri: z.string().nullable(),
  policy_uri: z.string().nullable(),
  default_sub_type: subTypeSchema,
});

/** The registration's answer: the only one that carries the secret and the registration token. */
export const registeredClientSchema = clientSchema.extend({
  client_secret: z.string().optional(),
  registration_access_token: z.string(),
});

export const clientPublicSchema = z.object({
  created_at: timestamp,
  modified_at: timestamp.nullable(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  client_uri: z.string().nullable(),
  logo_uri: z.string().nullable(),
  tos_uri: z.string().nullable(),
  policy_uri: z.string().nullable(),
});

const param = textSchema({ max: TEXT_MAX_LENGTH.url });

/**
 * The authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, Polar's `sub_type`). Every parameter
 * is optional here: which one is missing or wrong decides between an error shown on the page and
 * one sent to the client's redirect URI (§4.1.2.1), so the service checks them in that order.
 */
export const authorizeQuerySchema = z.object({
  client_id: param.optional(),
  redirect_uri: param.optional(),
  response_type: param.optional(),
  scope: param.optional(),
  state: param.optional(),
  code_challenge: param.optional(),
  code_challenge_method: param.optional(),
  nonce: param.optional(),
  prompt: param.optional(),
  sub_type: param.optional(),
});
export type AuthorizeQuery = z.output<typeof authorizeQuerySchema>;

export const consentBodySchema = authorizeQuerySchema.extend({
  action: z.enum(['allow', 'deny']),
  /** For `sub_type=organization`: the organization the token will act for. */
  organization_id: z.uuid().nullable().optional(),
});
export type ConsentBody = z.output<typeof consentBodySchema>;

export const authorizeUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  avatar_url: z.string().nullable(),
});
export const authorizeOrganizationSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  avatar_url: z.string().nullable(),
  /** Ours: the name the consent page shows. */
  name: z.string(),
});

const authorizeBase = {
  client: clientPublicSchema,
  scopes: z.array(z.string()),
  scope_display_names: z.record(z.string(), z.string()),
  organizations: z.array(authorizeOrganizationSchema),
};

/** Polar's AuthorizeResponse: what the consent page shows, by the token's subject type. */
export const authorizeResponseSchema = z.discriminatedUnion('sub_type', [
  z.object({ ...authorizeBase, sub_type: z.literal('user'), sub: authorizeUserSchema.nullable() }),
  z.object({
    ...authorizeBase,
    sub_type: z.literal('organization'),
    sub: authorizeOrganizationSchema.nullable(),
  }),
]);
export type AuthorizeResponse = z.infer<typeof authorizeResponseSchema>;

export const consentResponseSchema = z.object({
  /** Where the browser goes next: the client's redirect URI with the code (or the error) and `state`. */
  redirect_to: z.string(),
});

const formText = (max = 4096) => textSchema({ max });

/**
 * The token request (RFC 6749 §4.1.3, §6; form-encoded). Fields are checked by the service, so a
 * missing one is RFC 6749's `invalid_request`, not a validation list.
 */
export const tokenRequestSchema = z.object({
  grant_type: formText(64).optional(),
  client_id: formText(128).optional(),
  client_secret: formText(256).optional(),
  code: formText(256).optional(),
  redirect_uri: formText(TEXT_MAX_LENGTH.url).optional(),
  code_verifier: formText(128).optional(),
  refresh_token: formText(256).optional(),
  scope: formText().optional(),
  session_token: formText(256).optional(),
  sub_type: formText(32).optional(),
  sub: formText(64).optional(),
});
export type TokenRequest = z.output<typeof tokenRequestSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  refresh_token: z.string().nullable(),
  scope: z.string(),
  id_token: z.string().nullable(),
});

/** RFC 7009 §2.1 and RFC 7662 §2.1, with the client's credentials in the body (or Basic). */
export const tokenActionRequestSchema = z.object({
  token: formText(256).optional(),
  token_type_hint: formText(32).optional(),
  client_id: formText(128).optional(),
  client_secret: formText(256).optional(),
});
export type TokenActionRequest = z.output<typeof tokenActionRequestSchema>;

export const revokeResponseSchema = z.object({});

/** RFC 7662 §2.2: an unknown, expired or revoked token (or another client's) is only `active: false`. */
export const introspectResponseSchema = z.union([
  z.object({
    active: z.literal(true),
    client_id: z.string(),
    token_type: z.enum(['access_token', 'refresh_token']),
    scope: z.string(),
    sub_type: subTypeSchema,
    sub: z.string(),
    aud: z.string(),
    iss: z.string(),
    exp: z.number().int(),
    iat: z.number().int(),
  }),
  z.object({ active: z.literal(false) }),
]);

export const userInfoSchema = z.object({
  sub: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  email_verified: z.boolean().nullable().optional(),
});
