// Better Auth with Polar's plugin, exactly as Polar's guide sets it up for polar.sh, except for the
// client: `serverURL` names Tollgate instead of `server: 'sandbox' | 'production'`, and the token is
// one of Tollgate's organization access tokens. Nothing else in a seller's app has to change.
import { checkout, polar, portal, usage, webhooks } from '@polar-sh/better-auth';
import { Polar } from '@polar-sh/sdk';
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { z } from 'zod';

export const demoConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3005),
  /** Where the demo is reached; Better Auth builds its callback and success URLs from it. */
  BETTER_AUTH_URL: z.url().optional(),
  BETTER_AUTH_SECRET: z.string().min(32),
  /** Tollgate's address: the SDK puts `/v1/…` after it, as it does after https://api.polar.sh. */
  POLAR_SERVER_URL: z.url(),
  POLAR_ACCESS_TOKEN: z.string().min(1),
  /** The secret of the Tollgate webhook endpoint that points at `/api/auth/polar/webhooks`. */
  POLAR_WEBHOOK_SECRET: z.string().min(1),
  POLAR_PRODUCT_ID: z.uuid(),
  POLAR_PRODUCT_SLUG: z.string().min(1).default('pro'),
  /** The name of the events the meter counts. */
  USAGE_EVENT_NAME: z.string().min(1).default('api_call'),
});
export type DemoConfig = z.infer<typeof demoConfigSchema>;

export type ReceivedWebhook = { id: string; type: string; timestamp: string; receivedAt: string };

/** The last events the webhooks plugin verified, newest first: the demo keeps no database. */
export function createWebhookInbox(limit = 50) {
  const events: ReceivedWebhook[] = [];
  return {
    events: () => [...events],
    record(event: Omit<ReceivedWebhook, 'receivedAt'>) {
      events.unshift({ ...event, receivedAt: new Date().toISOString() });
      events.length = Math.min(events.length, limit);
    },
  };
}
export type WebhookInbox = ReturnType<typeof createWebhookInbox>;

export function createDemoAuth(config: DemoConfig, inbox: WebhookInbox) {
  const baseURL = config.BETTER_AUTH_URL ?? `http://localhost:${config.PORT}`;
  const polarClient = new Polar({
    accessToken: config.POLAR_ACCESS_TOKEN,
    serverURL: config.POLAR_SERVER_URL,
  });
  return betterAuth({
    baseURL,
    secret: config.BETTER_AUTH_SECRET,
    // In memory: the demo's users are its only state, and a restart signing everyone out costs a
    // demo nothing. Tollgate keeps what matters (customers, orders, subscriptions, usage), and a
    // user who signs up again with the same email is matched to their Tollgate customer by email.
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true, autoSignIn: true },
    plugins: [
      polar({
        client: polarClient,
        createCustomerOnSignUp: true,
        use: [
          checkout({
            products: [{ productId: config.POLAR_PRODUCT_ID, slug: config.POLAR_PRODUCT_SLUG }],
            successUrl: '/success?checkout_id={CHECKOUT_ID}',
            returnUrl: '/',
            authenticatedUsersOnly: true,
          }),
          portal({ returnUrl: baseURL }),
          usage(),
          webhooks({
            secret: config.POLAR_WEBHOOK_SECRET,
            // Called only for events whose signature verified and whose payload parsed.
            onPayload: async (payload) => {
              const data = payload.data as { id?: string };
              inbox.record({
                id: data.id ?? '',
                type: payload.type,
                timestamp: payload.timestamp.toISOString(),
              });
            },
          }),
        ],
      }),
    ],
  });
}
export type DemoAuth = ReturnType<typeof createDemoAuth>;
