import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { toNodeHandler } from 'better-auth/node';
import type { Client } from '@temporalio/client';
import type { Config } from '../config/config.js';
import type { Db } from '../infra/db.js';
import type { Logger } from '../infra/logger.js';
import type { PublicSettings } from '../domain/system/schemas.js';
import type { Mailer } from '../domain/emails/mailer.js';
import type { AccountPlatforms } from '../domain/customer-accounts/platforms.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import { taskQueues } from '../temporal/task-queues.js';
import { createStuckWorkRouter } from './operators/stuck-work.js';
import { CLIENT_IP_HEADER, type Auth } from './auth/auth.js';
import { createAuthPagesRouter } from './auth/router.js';
import type { WebhookSender } from '../domain/webhooks/service.js';
import type { WorkflowStarters } from '../temporal/starters.js';
import { createCheckoutLinksRouter } from './checkout-links.js';
import { createDevMailboxRouter } from './dev/mailbox.js';
import type { FileStorage } from '../domain/files/storage.js';
import { createFilesRouter } from './files.js';
import { createHealthRouter } from './health.js';
import type { ProcessorEventSink } from '../domain/payments/processor.js';
import { createStripeWebhookRouter } from '../integrations/stripe/webhook.js';
import { createSandboxRouter } from '../integrations/sandbox/router.js';
import { notFoundHandler, createErrorHandler } from './http/errors.js';
import { limitBodySize } from './http/body-limit.js';
import { perClientIp, rateLimit } from './http/rate-limit.js';
import {
  baseSecurityHeaders,
  frameAncestorsFor,
  pageContentSecurityPolicy,
} from './http/security-headers.js';
import { requestContext } from './http/request-context.js';
import { metricsHandler, recordRequests, type ApiMetrics } from './http/metrics.js';
import { createV1Router } from './v1/router.js';
import { OAUTH2_SCOPES } from '../domain/oauth2/schemas.js';
import { authorizationServerMetadata } from '../domain/oauth2/views.js';
import { readApiVersion } from './http/api-version.js';
import { isApiVersion } from '../domain/platform/api-versions.js';
import { embedOriginOf } from '../domain/checkouts/client.js';
import { AppError } from '../domain/platform/errors.js';
import type { AccessTokenCache } from '../domain/access-tokens/cache.js';
import type { ProcessPresence } from '../infra/process-presence.js';
import type { MeterCache } from '../domain/meters/cache.js';

export type AppDeps = {
  config: Pick<
    Config,
    | 'TEMPORAL_TASK_QUEUE'
    | 'READINESS_TIMEOUT_MS'
    | 'TRUST_PROXY'
    | 'API_RATE_LIMIT_PER_MINUTE'
    | 'CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE'
    | 'CHECKOUT_TTL_SECONDS'
    | 'publicUrl'
    | 'processorMetadata'
  >;
  settings: PublicSettings;
  logger: Logger;
  db: Db;
  /** `GET /metrics` and request counting (api/http/metrics.ts); absent: neither. */
  metrics?: { registry: ApiMetrics; token?: string };
  /** Readiness asks Temporal directly; everything else goes through `workflows`. */
  temporal: Client;
  workflows: WorkflowStarters;
  /** Checks webhook endpoint URLs against the deployment's delivery rule. */
  webhookSender: WebhookSender;
  auth: Auth;
  /** Where uploaded files' bytes live (local disk or S3). */
  fileStorage: FileStorage;
  tax: TaxCalculator;
  /** Emails of the API's own (the customer portal's sign-in codes). */
  mailer: Mailer;
  /** GitHub and Discord, for linking customers' accounts in the portal; none unless given. */
  accountPlatforms?: AccountPlatforms;
  /** The built web app (dist/web); served with an SPA fallback when present. */
  webDir?: string;
  /**
   * Stripe's webhooks (live mode): the endpoint's signing secret and where verified events go.
   * Without it POST /v1/integrations/stripe/webhook is not served (sandbox mode needs none).
   */
  stripeWebhook?: { webhookSecret: string; sink: ProcessorEventSink };
  /** Access tokens kept in memory between requests (see domain/access-tokens/cache.ts). */
  accessTokens?: AccessTokenCache;
  /** Meters kept in memory between quantities requests (see domain/meters/cache.ts). */
  meters?: MeterCache;
  /** This process's presence lock (see infra/process-presence.ts). */
  presence?: ProcessPresence;
};

/** Sign-in, sign-up and organization calls carry a few fields; nothing there needs more. */
const AUTH_BODY_LIMIT_BYTES = 64 * 1024;

/** Errors of express.static (serve-static), which carry an HTTP status. */
const staticErrors: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  const status = (error as { status?: number }).status ?? 500;
  if (status === 404) return next();
  next(status < 500 ? new AppError(status === 403 ? 'NotPermitted' : 'BadRequest') : error);
};

const isApiPath = (path: string) => path === '/v1' || path.startsWith('/v1/') || path.startsWith('/api/');

/**
 * Better Auth rate-limits per client address but reads it only from headers; without one every
 * client would share a bucket. Express knows the address (honouring `trust proxy`), so it is handed
 * over in a header of our own, overwriting anything a client sent under that name.
 */
const passClientIp: RequestHandler = (req, _res, next) => {
  req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? '';
  next();
};

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.TRUST_PROXY);
  // Polar's list filters use deepObject query parameters (`?metadata[key]=value`).
  app.set('query parser', 'extended');
  app.use(requestContext(deps.logger));
  if (deps.metrics) {
    app.use(recordRequests(deps.metrics.registry));
    app.get('/metrics', metricsHandler(deps.metrics.registry, deps.metrics.token));
  }
  app.use(baseSecurityHeaders);

  app.use(
    createHealthRouter({
      db: deps.db,
      temporal: deps.temporal,
      taskQueue: taskQueues(deps.config.TEMPORAL_TASK_QUEUE).main,
      timeoutMs: deps.config.READINESS_TIMEOUT_MS,
      settings: deps.settings,
    }),
  );
  // Our /ok and /error pages answer first (no links out of a self-hosted install); every other
  // /api/auth path is Better Auth's. It parses its own bodies, so no JSON parser runs before it.
  app.use('/api/auth', createAuthPagesRouter());
  // Spec §7 names the password-reset request /forget-password; Better Auth 1.7 calls it
  // /request-password-reset. Same handler, same rate limit.
  app.post('/api/auth/forget-password', (req, _res, next) => {
    req.url = '/api/auth/request-password-reset';
    next();
  });
  app.all('/api/auth/{*path}', limitBodySize(AUTH_BODY_LIMIT_BYTES), passClientIp, toNodeHandler(deps.auth));
  // One budget per client address for everything a buyer calls without a caller.
  const checkoutClientRateLimit = rateLimit(deps.db, {
    limit: deps.config.CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE,
    key: perClientIp('checkout-client'),
    logger: deps.logger,
  });
  // RFC 8414 discovery of the OAuth server (docs/oauth2.md); no ID tokens, so no OpenID document.
  app.get('/.well-known/oauth-authorization-server', (_req, res) => {
    // Public, and read by browser apps before they start a flow.
    res.set({ 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' });
    res.json(authorizationServerMetadata(deps.config.publicUrl, OAUTH2_SCOPES));
  });
  // Every /v1 request is read in the version it names; an unknown one goes no further.
  app.use('/v1', readApiVersion);
  // Ahead of the /v1 router: Stripe authenticates with its signature over the raw body, not a token.
  if (deps.stripeWebhook) {
    app.use('/v1/integrations/stripe', createStripeWebhookRouter({ db: deps.db, ...deps.stripeWebhook }));
  }
  const v1 = createV1Router({
    db: deps.db,
    auth: deps.auth,
    logger: deps.logger,
    rateLimitPerMinute: deps.config.API_RATE_LIMIT_PER_MINUTE,
    checkoutClientRateLimit,
    version: deps.settings.version,
    publicUrl: deps.config.publicUrl,
    fileStorage: deps.fileStorage,
    workflows: deps.workflows,
    webhookSender: deps.webhookSender,
    tax: deps.tax,
    mailer: deps.mailer,
    accountPlatforms: deps.accountPlatforms,
    processorMetadata: deps.config.processorMetadata,
    checkoutTtlMs: deps.config.CHECKOUT_TTL_SECONDS * 1000,
    sandbox: deps.settings.mode === 'sandbox',
    accessTokens: deps.accessTokens,
    meters: deps.meters,
    presence: deps.presence,
  });
  app.use('/v1', v1.router);
  // Each dated version's document where Polar serves it (`/2026-10/openapi.json`).
  app.get('/:apiVersion/openapi.json', (req, res, next) => {
    const { apiVersion } = req.params;
    if (!isApiVersion(apiVersion)) return next();
    res.json(v1.documentFor(apiVersion));
  });
  if (deps.settings.dev_mailbox) app.use('/api/dev/mailbox', createDevMailboxRouter(deps));
  if (deps.settings.mode === 'sandbox') {
    app.use(
      '/api/sandbox',
      createSandboxRouter({
        db: deps.db,
        sink: deps.workflows.processorEvents,
        perClient: checkoutClientRateLimit,
      }),
    );
  }
  app.use(
    '/api/files',
    createFilesRouter({ db: deps.db, storage: deps.fileStorage, publicUrl: deps.config.publicUrl }),
  );
  app.use(
    '/api/checkout-links',
    createCheckoutLinksRouter(
      {
        db: deps.db,
        publicUrl: deps.config.publicUrl,
        tax: deps.tax,
        workflows: deps.workflows.checkouts,
        checkoutTtlMs: deps.config.CHECKOUT_TTL_SECONDS * 1000,
        processorMetadata: deps.config.processorMetadata,
      },
      checkoutClientRateLimit,
    ),
  );
  app.use(
    '/api/operators/stuck-work',
    createStuckWorkRouter({
      db: deps.db,
      auth: deps.auth,
      publicUrl: deps.config.publicUrl,
      workflows: deps.workflows,
    }),
  );
  app.use('/api', notFoundHandler);

  if (deps.webDir && existsSync(path.join(deps.webDir, 'index.html'))) {
    // Read once: sending it by path would refuse an install under a hidden folder (send() treats
    // any dot segment of an absolute path as a dotfile).
    const indexHtml = readFileSync(path.join(deps.webDir, 'index.html'));
    const pages = express.Router();
    pages.use(express.static(deps.webDir, { index: false, maxAge: '1h', immutable: false }));
    // Client-side routes (TanStack Router) all load the same document.
    pages.get('/{*path}', async (req, res, next) => {
      if (isApiPath(req.path)) return next();
      const frameAncestors = await frameAncestorsFor(req.path, (secret) => embedOriginOf(deps.db, secret));
      res.set({
        'Cache-Control': 'no-cache',
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': pageContentSecurityPolicy({ mode: deps.settings.mode, frameAncestors }),
        ...(frameAncestors === "'none'" ? { 'X-Frame-Options': 'DENY' } : {}),
      });
      res.send(indexHtml);
    });
    // A file the static layer could not serve (a malformed path) is the client's error, never a 500.
    pages.use(staticErrors);
    app.use(pages);
  }

  app.use(notFoundHandler);
  app.use(createErrorHandler(deps.logger));
  return app;
}
