// The API process: `node dist/api/main.js` (production) or `tsx api/main.ts` (dev) load it after starting tracing; run directly, it runs untraced.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigOrExit } from '../config/config.js';
import { createApiMetrics } from './http/metrics.js';
import { createDb } from '../infra/db.js';
import { createFileStorage } from '../integrations/file-storage.js';
import { createAccountPlatforms } from '../integrations/account-platforms.js';
import { createLogger } from '../infra/logger.js';
import { createHttpWebhookSender, webhookTargetPolicy } from '../integrations/http/webhook-sender.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { readPackageVersion } from '../infra/version.js';
import { connectTemporalClient } from '../temporal/connection.js';
import { taskQueues } from '../temporal/task-queues.js';
import { createStripeTax } from '../integrations/payments.js';
import { createTaxCalculator } from '../integrations/tax.js';
import { temporalStarters } from '../temporal/starters.js';
import { prepareOperatorContext } from '../temporal/entity-directory.js';
import { AccessTokenCache } from '../domain/access-tokens/cache.js';
import { MeterCache } from '../domain/meters/cache.js';
import { ProcessPresence } from '../infra/process-presence.js';
import { createApp } from './app.js';
import { createAuth } from './auth/auth.js';
import { trustedOriginsFor } from './auth/origins.js';
import { withAuthInputRules } from './http/auth-input.js';
import { isDevMailboxAvailable } from './dev/mailbox.js';
import { drainServer } from './http/shutdown.js';
import { processTracing } from '../infra/trace-context.js';
import { clientTracingInterceptors } from '../temporal/tracing.js';

const config = loadConfigOrExit();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'tollgate-api' });
if (!config.DATABASE_URL) {
  logger.fatal('DATABASE_URL is required by the API');
  process.exit(78);
}

if (!config.AUTH_SECRET) {
  logger.warn('AUTH_SECRET is not set: using a random one, so sessions end when the API restarts');
}
const db = createDb(config.DATABASE_URL);
const accessTokens = new AccessTokenCache({ connectionString: config.DATABASE_URL }).start();
const meters = new MeterCache({ connectionString: config.DATABASE_URL }).start();
const presence = new ProcessPresence({ connectionString: config.DATABASE_URL }).start();
const authSecret = config.AUTH_SECRET ?? randomBytes(32).toString('base64url');
// With tracing on (api/main.ts started it), a workflow start or signal carries the request's trace.
const temporal = await connectTemporalClient(config, clientTracingInterceptors(processTracing()));
const operators = await prepareOperatorContext({
  temporal,
  namespace: config.TEMPORAL_NAMESPACE,
  db,
  publicUrl: config.publicUrl,
  warn: (message) => logger.warn(message),
});
const workflows = temporalStarters(temporal, taskQueues(config.TEMPORAL_TASK_QUEUE).main, operators);
const mailer = createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger });
const mode = config.isSandbox ? 'sandbox' : 'live';
const auth = createAuth(db, {
  publicUrl: config.publicUrl,
  secret: authSecret,
  trustedOrigins: trustedOriginsFor({
    publicUrl: config.publicUrl,
    configured: config.TRUSTED_ORIGINS ?? [],
    isProduction: config.NODE_ENV === 'production',
  }),
  rateLimitEnabled: true,
  logger,
  mailer,
  invitations: workflows.invitations,
  organizations: { limit: config.ORGANIZATION_LIMIT, allowCreation: config.ALLOW_ORGANIZATION_CREATION },
  requireEmailVerification: config.REQUIRE_EMAIL_VERIFICATION,
  socialProviders: config.AUTH_SOCIAL_PROVIDERS ?? {},
});
// From dist/api/server.js the web build is dist/web; from sources (dev) Vite serves it instead.
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');

const app = createApp({
  config,
  settings: {
    version: readPackageVersion(),
    mode,
    temporal_ui_url: config.TEMPORAL_UI_URL ?? null,
    temporal_namespace: config.TEMPORAL_NAMESPACE,
    dev_mailbox: isDevMailboxAvailable(mode, mailer),
    stripe_publishable_key: config.STRIPE_PUBLISHABLE_KEY ?? null,
  },
  logger,
  db,
  metrics: config.METRICS_ENABLED
    ? { registry: createApiMetrics({ db }), token: config.METRICS_TOKEN }
    : undefined,
  temporal,
  workflows,
  webhookSender: createHttpWebhookSender(webhookTargetPolicy(config)),
  // Better Auth's HTTP calls pass the text rule first (api/http/auth-input.ts).
  auth: withAuthInputRules(auth),
  fileStorage: createFileStorage(config, authSecret),
  tax: createTaxCalculator(config, config.isSandbox ? undefined : createStripeTax(config)),
  stripeWebhook: config.STRIPE_WEBHOOK_SECRET
    ? {
        webhookSecret: config.STRIPE_WEBHOOK_SECRET,
        sink: workflows.processorEvents,
      }
    : undefined,
  mailer,
  accountPlatforms: createAccountPlatforms(config),
  webDir,
  accessTokens,
  meters,
  presence,
});

const server: Server = app.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, host: config.HOST }, 'api listening');
});
// Keep-alive sockets must not hold shutdown open longer than the grace period.
server.keepAliveTimeout = 5_000;

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'api draining');
  await drainServer(server, config.SHUTDOWN_GRACE_MS, () =>
    logger.warn('grace period over; closing remaining connections'),
  );
  await Promise.allSettled([
    db.$disconnect(),
    temporal.connection.close(),
    accessTokens.stop(),
    meters.stop(),
    presence.stop(),
  ]);
  await processTracing()?.shutdown();
  logger.info('api stopped');
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
