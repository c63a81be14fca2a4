import { z } from 'zod';
import { taxRateTableSchema } from '../domain/tax/rules.js';

const booleanFromString = z
  .enum(['true', 'false', '1', '0'], { message: 'expected true or false' })
  .transform((value) => value === 'true' || value === '1');

const port = z.coerce.number().int().min(1).max(65535);

/** The sign-in providers of spec §7 that Better Auth offers. */
export const SOCIAL_PROVIDERS = [
  'apple',
  'discord',
  'facebook',
  'github',
  'microsoft',
  'google',
  'spotify',
  'twitch',
  'twitter',
  'dropbox',
  'kick',
  'linkedin',
  'gitlab',
  'tiktok',
  'reddit',
  'roblox',
  'vk',
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

// Some providers take more than these (tiktok's clientKey, microsoft's tenantId…); Better Auth checks those.
const socialProviderCredentials = z.looseObject({
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
});
export type SocialProviderCredentials = z.infer<typeof socialProviderCredentials>;

/** Settings holding a JSON object: parsed here, so bad JSON is one configuration line like any bad value. */
const jsonText = z.string().transform((value, ctx) => {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
    return z.NEVER;
  }
});

/** `{"github":{"clientId":"…","clientSecret":"…"}}`: one entry per provider to offer. */
const socialProvidersJson = jsonText.pipe(
  z.partialRecord(z.enum(SOCIAL_PROVIDERS), socialProviderCredentials),
);
const positiveMs = z.coerce.number().int().positive();

/**
 * Every setting Tollgate reads from the environment. `.env.example`, the README table,
 * `docker-compose.yml` and the Dockerfile are checked against these keys by a unit test.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: port.default(3000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Express `trust proxy`: which proxies' X-Forwarded-For to believe for client addresses. Off by
   * default: believing it from anyone lets a client pick its own address and dodge per-address
   * limits. A deployment behind a reverse proxy names it (loopback, a CIDR, a hop count).
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value) =>
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('.data'),

  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  EMBEDDED_POSTGRES_PORT: port.default(54329),

  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('tollgate'),
  TEMPORAL_TLS: booleanFromString.default(false),
  TEMPORAL_TLS_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().min(1).optional(),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_UI_URL: z.url({ protocol: /^https?$/ }).optional(),

  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TRUSTED_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ })))
    .optional(),

  /** How many organizations one user may belong to before creating another is refused; unset: no limit. */
  ORGANIZATION_LIMIT: z.coerce.number().int().positive().optional(),
  ALLOW_ORGANIZATION_CREATION: booleanFromString.default(true),
  /** Refuse password sign-in until the email address is verified (the verification email is resent). */
  REQUIRE_EMAIL_VERIFICATION: booleanFromString.default(false),
  AUTH_SOCIAL_PROVIDERS: socialProvidersJson.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Tollgate <no-reply@localhost>'),

  /** Serve `GET /metrics` on the API (Prometheus text format; docs/operations.md). */
  METRICS_ENABLED: booleanFromString.default(false),
  /**
   * Bearer token a scrape of /metrics must send. Required with METRICS_ENABLED when
   * NODE_ENV=production: the API's port is public, and the metrics tell traffic and revenue.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * The worker's own `GET /metrics` listener (it has no HTTP port otherwise); unset: none. The
   * same METRICS_TOKEN applies when set.
   */
  METRICS_PORT: port.optional(),
  /** The Temporal SDK's Prometheus exporter in the worker (task latencies, slots); unset: none. No token. */
  TEMPORAL_METRICS_PORT: port.optional(),
  /** Address the worker's two metrics listeners bind (an IP address: the SDK's exporter takes no names). */
  METRICS_HOST: z.union([z.ipv4(), z.ipv6()]).default('0.0.0.0'),
  /**
   * OpenTelemetry: the OTLP/HTTP collector's base URL (spans go to `<url>/v1/traces`, as JSON).
   * Unset: no tracing. Read by the entry files (api/main.ts, temporal/main.ts) before the app loads.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** The traces' `service.name`; `tollgate-api` and `tollgate-worker` unless set. */
  OTEL_SERVICE_NAME: z.string().min(1).max(100).optional(),

  /** Payments API requests per minute per access token or signed-in user. */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(500),
  /**
   * Requests per minute per client address to the buyer's calls, which have no caller: the public
   * checkout client endpoints and checkout link URLs together. A page load takes a few.
   */
  CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(300),
  /**
   * Let webhook endpoints point at private networks (10/8, 172.16/12, 192.168/16, fc00::/7,
   * 100.64/10), for deployments whose sellers' receivers live there. Loopback stays sandbox-only;
   * link-local and cloud metadata addresses are never allowed.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: booleanFromString.default(false),

  READINESS_TIMEOUT_MS: positiveMs.default(5000),
  SHUTDOWN_GRACE_MS: positiveMs.default(10_000),

  /** Uploaded files go to this S3-compatible bucket; unset: the local disk under DATA_DIR/files. */
  S3_BUCKET: z.string().min(1).optional(),
  /** An S3-compatible service other than AWS (MinIO, R2…); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Address buckets as <endpoint>/<bucket> (most self-hosted services need it). */
  S3_FORCE_PATH_STYLE: booleanFromString.default(false),

  /** How long a checkout stays open before it expires. */
  CHECKOUT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),

  /**
   * Days between the tries of a renewal that failed, comma-separated (`2,5,7,7`, Polar's schedule);
   * after the last try fails the subscription ends unpaid.
   */
  SUBSCRIPTION_RETRY_DAYS: z
    .string()
    .regex(
      /^\s*\d{1,3}(\s*,\s*\d{1,3}){0,11}\s*$/,
      'must be up to 12 whole numbers of days, comma-separated (2,5,7,7)',
    )
    .transform((value) => value.split(',').map((days) => Number(days.trim())))
    .refine((days) => days.every((count) => count >= 1), 'each wait must be at least 1 day')
    .default([2, 5, 7, 7]),

  STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must be a Stripe secret key (sk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .startsWith('whsec_', 'must be a Stripe webhook secret (whsec_…)')
    .optional(),
  /** Loads Stripe Elements on the hosted checkout page. */
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_', 'must be a Stripe publishable key (pk_…)').optional(),
  /** Tax rates in basis points by country or region (`domain/tax/rules.ts`); unset: no tax. */
  TAX_RATES: jsonText.pipe(taxRateTableSchema).optional(),
  /** Another address for Stripe's API (stripe-mock in tests, a self-hosted proxy); unset: api.stripe.com. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),

  /**
   * GitHub repository benefits: the OAuth app customers link their account with (callback
   * `<PUBLIC_URL>/v1/customer-portal/oauth-accounts/callback`) and the token that adds them as
   * collaborators (repository administration on the sellers' repositories). All three or none.
   */
  GITHUB_CLIENT_ID: z.string().min(1).optional(),
  GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
  GITHUB_TOKEN: z.string().min(1).optional(),
  /** GitHub's web address (OAuth) and API; another for GitHub Enterprise Server or a test double. */
  GITHUB_OAUTH_URL: z.url({ protocol: /^https?$/ }).default('https://github.com'),
  GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.github.com'),
  /**
   * Discord benefits: the application customers link their account with (same callback) and its
   * bot, which must be in the sellers' servers with Manage Roles (and Kick Members to kick).
   */
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  DISCORD_BOT_TOKEN: z.string().min(1).optional(),
  /** Discord's web address (the OAuth consent page) and API (with its version). */
  DISCORD_OAUTH_URL: z.url({ protocol: /^https?$/ }).default('https://discord.com'),
  DISCORD_API_URL: z.url({ protocol: /^https?$/ }).default('https://discord.com/api/v10'),
});

export type RawConfig = z.infer<typeof configSchema>;

export type Config = RawConfig & {
  publicUrl: string;
  temporalAddress: string;
  isSandbox: boolean;
  /** `payment_processor_metadata` of every checkout: what the hosted page needs from the processor. */
  processorMetadata: Record<string, string>;
};

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration: ${issues.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Empty strings mean "not set", as `.env` files and compose files often leave them. */
function withoutEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = configSchema.safeParse(withoutEmptyValues(env));
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  const raw = result.data;
  const issues: string[] = [];
  if (Boolean(raw.TEMPORAL_TLS_CERT_PATH) !== Boolean(raw.TEMPORAL_TLS_KEY_PATH)) {
    issues.push('TEMPORAL_TLS_CERT_PATH and TEMPORAL_TLS_KEY_PATH must be set together');
  }
  if (Boolean(raw.S3_ACCESS_KEY_ID) !== Boolean(raw.S3_SECRET_ACCESS_KEY)) {
    issues.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  if (raw.S3_ENDPOINT && !raw.S3_BUCKET) issues.push('S3_BUCKET: required when S3_ENDPOINT is set');
  // The API's port is public: metrics (traffic, errors) are not served there to anyone in production.
  if (raw.METRICS_ENABLED && raw.NODE_ENV === 'production' && !raw.METRICS_TOKEN)
    issues.push('METRICS_TOKEN: required when METRICS_ENABLED is true and NODE_ENV=production');
  if (raw.STRIPE_SECRET_KEY && !raw.STRIPE_WEBHOOK_SECRET) {
    issues.push('STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set');
  }
  if (raw.STRIPE_API_BASE && !/^https?:\/\/[^/?#]+\/?$/.test(raw.STRIPE_API_BASE)) {
    // Stripe's SDK takes a host, port and protocol, not a base path.
    issues.push('STRIPE_API_BASE: must be scheme://host[:port] without a path');
  }
  if (raw.STRIPE_SECRET_KEY && !raw.STRIPE_PUBLISHABLE_KEY) {
    issues.push(
      'STRIPE_PUBLISHABLE_KEY: required when STRIPE_SECRET_KEY is set (Stripe Elements on the checkout page)',
    );
  }
  const github = [raw.GITHUB_CLIENT_ID, raw.GITHUB_CLIENT_SECRET, raw.GITHUB_TOKEN].filter(Boolean).length;
  if (github > 0 && github < 3) {
    issues.push('GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET and GITHUB_TOKEN must be set together');
  }
  const discord = [raw.DISCORD_CLIENT_ID, raw.DISCORD_CLIENT_SECRET, raw.DISCORD_BOT_TOKEN].filter(
    Boolean,
  ).length;
  if (discord > 0 && discord < 3) {
    issues.push('DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_BOT_TOKEN must be set together');
  }
  if (raw.NODE_ENV === 'production' && !raw.AUTH_SECRET) {
    issues.push('AUTH_SECRET: required in production (signs sessions and encrypts two-factor secrets)');
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    ...raw,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
    temporalAddress: raw.TEMPORAL_ADDRESS ?? `localhost:${raw.TEMPORAL_DEV_PORT}`,
    // Sandbox mode is server-wide: without a Stripe key every payment goes through the built-in
    // test-mode processor (DESIGN.md, "Payment processing").
    isSandbox: !raw.STRIPE_SECRET_KEY,
    processorMetadata: raw.STRIPE_PUBLISHABLE_KEY ? { publishable_key: raw.STRIPE_PUBLISHABLE_KEY } : {},
  };
}

/** Parses the configuration or ends the process with one line per bad variable. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const issue of error.issues) console.error(`tollgate: configuration error: ${issue}`);
      process.exit(78);
    }
    throw error;
  }
}
