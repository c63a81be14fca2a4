import { createHash } from 'node:crypto';
import express, { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Db } from '../../infra/db.js';
import type { Logger } from '../../infra/logger.js';
import type { Auth } from '../auth/auth.js';
import { authenticate, authenticateCustomer } from '../http/authenticate.js';
import { notFoundHandler } from '../http/errors.js';
import { idempotency } from '../http/idempotency.js';
import { apiVersionOf } from '../http/api-version.js';
import { OperationRegistry, openApiDocument } from '../http/operations.js';
import type { RequestedApiVersion } from '../../domain/platform/api-versions.js';
import { perCaller, perClientIp, rateLimit, type RateLimitKey } from '../http/rate-limit.js';
import type { TaxCalculator } from '../../domain/tax/calculator.js';
import type { WorkflowStarters } from '../../temporal/starters.js';
import { registerBenefitGrantOperations } from './benefit-grants.js';
import { registerBenefitOperations } from './benefits.js';
import { registerPortalBenefitGrantOperations } from './customer-portal/benefit-grants.js';
import { registerPortalCustomerOperations } from './customer-portal/customer.js';
import { registerPortalCustomerMeterOperations } from './customer-portal/customer-meters.js';
import { registerPortalEmailUpdateOperations } from './customer-portal/email-updates.js';
import {
  registerCustomerSessionOperations,
  registerPortalSignInOperations,
} from './customer-portal/customer-sessions.js';
import { registerPortalDownloadableOperations } from './customer-portal/downloadables.js';
import { registerPortalLicenseKeyOperations } from './customer-portal/license-keys.js';
import { registerPortalOAuthAccountOperations } from './customer-portal/oauth-accounts.js';
import { registerPortalOrderOperations } from './customer-portal/orders.js';
import { registerPortalOrganizationOperations } from './customer-portal/organizations.js';
import { registerPortalPaymentMethodOperations } from './customer-portal/payment-methods.js';
import {
  registerPortalSubscriptionOperations,
  registerPortalUpcomingInvoiceOperations,
} from './customer-portal/subscriptions.js';
import type { PortalContext } from '../../domain/customer-portal/context.js';
import { NO_ACCOUNT_PLATFORMS, type AccountPlatforms } from '../../domain/customer-accounts/platforms.js';
import { registerLicenseKeyOperations } from './license-keys.js';
import { registerCustomerSeatOperations, registerSeatClaimOperations } from './customer-seats.js';
import { registerPortalSeatOperations } from './customer-portal/seats.js';
import {
  checkoutClientCors,
  registerCheckoutClientOperations,
  registerCheckoutOperations,
} from './checkouts.js';
import { registerOrderOperations } from './orders.js';
import { registerPaymentOperations } from './payments.js';
import { registerDisputeOperations } from './disputes.js';
import { registerRefundOperations } from './refunds.js';
import { registerCheckoutLinkOperations } from './checkout-links.js';
import { registerCustomerOperations } from './customers.js';
import { registerDiscountOperations } from './discounts.js';
import type { FileStorage } from '../../domain/files/storage.js';
import { registerCustomFieldOperations } from './custom-fields.js';
import { registerFileOperations } from './files.js';
import { registerCustomerMeterOperations } from './customer-meters.js';
import { registerUsageOperations } from './usage.js';
import { registerEventTypeOperations } from './event-types.js';
import { registerMeterOperations } from './meters.js';
import { registerMetricOperations } from './metrics.js';
import { registerAccessTokenOperations } from './organization-access-tokens.js';
import { registerOrganizationOperations } from './organizations.js';
import { OAUTH2_BROWSER_PATHS, oauth2BrowserCors, registerOAuth2Operations } from './oauth2.js';
import { registerProductOperations } from './products.js';
import { registerSearchOperations } from './search.js';
import { registerSubscriptionCreateOperation, registerSubscriptionOperations } from './subscriptions.js';
import { registerTestClockOperations } from './test-clocks.js';
import { registerWebhookOperations } from './webhooks.js';
import type { WebhookSender } from '../../domain/webhooks/service.js';
import type { Mailer } from '../../domain/emails/mailer.js';
import type { AccessTokenCache } from '../../domain/access-tokens/cache.js';
import type { MeterCache } from '../../domain/meters/cache.js';
import type { ProcessPresence } from '../../infra/process-presence.js';

export type V1Deps = {
  db: Db;
  auth: Auth;
  logger: Logger;
  /** Requests per minute per token or signed-in user. */
  rateLimitPerMinute: number;
  /** The buyer's budget (per client address), shared with the checkout link URLs. */
  checkoutClientRateLimit: RequestHandler;
  version: string;
  publicUrl: string;
  fileStorage: FileStorage;
  /** Webhook endpoint URLs are checked against the deployment's delivery rule when saved. */
  webhookSender: WebhookSender;
  /** Checkouts, refunds, webhook redeliveries and the portal's cards start or wake their workflows. */
  workflows: Pick<
    WorkflowStarters,
    'checkouts' | 'refunds' | 'subscriptions' | 'webhooks' | 'paymentMethods' | 'disputes' | 'draftOrders'
  >;
  /** Tax on checkouts: none, a rate table, or Stripe Tax. */
  tax: TaxCalculator;
  /** Handed to the hosted checkout page (e.g. Stripe's publishable key). */
  processorMetadata: Record<string, string>;
  checkoutTtlMs: number;
  /** Sends the customer portal's sign-in codes. */
  mailer: Mailer;
  /** Sandbox mode (no real payments): test clocks are served. */
  sandbox: boolean;
  /** GitHub and Discord, for linking customers' accounts; none unless given. */
  accountPlatforms?: AccountPlatforms;
  /** Tokens authenticated lately, dropped at every change; without it each request reads its token. */
  accessTokens?: AccessTokenCache;
  /** Meters read lately by quantities requests, dropped at every change; without it each request reads its meter. */
  meters?: MeterCache;
  /** This process's presence lock: its idempotency claims are freed at once should it die. */
  presence?: ProcessPresence;
};

const PUBLIC_BODY_LIMIT = '64kb';
/** Checks of one key, or from one address, per minute: a real app checks far less often. */
const LICENSE_KEY_CHECKS_PER_MINUTE = 120;

const perLicenseKey: RateLimitKey = (req) => {
  const key = (req.body as { key?: unknown } | undefined)?.key;
  // Hashed: a counter's name is stored, and a key is a secret (and may hold any text).
  return `license-key:${typeof key === 'string' ? createHash('sha256').update(key).digest('hex') : 'none'}`;
};

/** Codes asked for or tried per minute and email address (a person needs a few). */
const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

/** Email changes asked for per customer and minute: a typo or two, never a mailing list. */
const EMAIL_UPDATES_PER_MINUTE = 5;

/** A body without an email address is refused by validation; only the others count per address. */
const onlyWithEmail =
  (limiter: RequestHandler): RequestHandler =>
  (req, res, next) =>
    typeof signInEmailOf(req) === 'string' ? limiter(req, res, next) : next();

const signInEmailOf = (req: Request) => (req.body as { email?: unknown } | undefined)?.email;

/** Per email address asked about, hashed: the counter's name is stored. */
const perSignInEmail: RateLimitKey = (req) =>
  `portal-sign-in:${createHash('sha256')
    .update(String(signInEmailOf(req)).trim().toLowerCase())
    .digest('hex')}`;

/** The portal's budget: per signed-in customer, else per address. */
const perCustomerOrAddress: RateLimitKey = (req, res) => {
  const customer = res.locals.customer as { customerId: string } | undefined;
  return customer ? `customer:${customer.customerId}` : perClientIp('customer-portal')(req, res);
};
/** Per signed-in customer; a caller without a session is refused by the operation (401). */
const perEmailUpdater: RateLimitKey = (req, res) => {
  const customer = res.locals.customer as { customerId: string } | undefined;
  return customer
    ? `portal-email-update:${customer.customerId}`
    : perClientIp('portal-email-update')(req, res);
};
const CALLER_BODY_LIMIT = '1mb';

/** Polar-compatible payments API (snake_case). Every operation but the document needs a caller. */
export function createV1Router(deps: V1Deps): {
  router: Router;
  registry: OperationRegistry;
  /** The OpenAPI document of a version, or of the unversioned API (null). */
  documentFor(apiVersion: RequestedApiVersion): Record<string, unknown>;
} {
  const router = Router();
  const registry = new OperationRegistry(router);

  // Built on first request, once every operation is registered; one per version.
  const documents = new Map<RequestedApiVersion, ReturnType<typeof openApiDocument>>();
  const documentFor = (apiVersion: RequestedApiVersion) => {
    let document = documents.get(apiVersion);
    if (!document) {
      document = openApiDocument(registry.operations, {
        version: deps.version,
        serverUrl: deps.publicUrl,
        apiVersion,
      });
      documents.set(apiVersion, document);
    }
    return document;
  };
  registry.addPublic(
    {
      method: 'get',
      path: '/openapi.json',
      operationId: 'openapi:get',
      summary: 'This OpenAPI 3.1 document: the unversioned API, or the version Polar-Version names',
      tag: 'meta',
      response: z.record(z.string(), z.unknown()),
    },
    async ({ res }) => documentFor(apiVersionOf(res)),
  );

  const checkouts = {
    db: deps.db,
    publicUrl: deps.publicUrl,
    tax: deps.tax,
    workflows: deps.workflows.checkouts,
    checkoutTtlMs: deps.checkoutTtlMs,
    processorMetadata: deps.processorMetadata,
  };
  // The buyer's calls carry the client secret instead of a caller.
  router.use(checkoutClientCors(checkouts));
  // After CORS, so a 429 reaches an embedding page readably (and preflights are not counted).
  router.use('/checkouts/client', deps.checkoutClientRateLimit);
  // Anyone may call these, so their bodies stay small: a buyer's form, never megabytes.
  router.use('/checkouts/client', express.json({ limit: PUBLIC_BODY_LIMIT }));
  registerCheckoutClientOperations(registry, checkouts);

  // The customer portal: its callers are customers (a customer session), or nobody (a license key
  // check, a download link). Before the organizations' authentication, which it does not take.
  const portal: PortalContext = {
    db: deps.db,
    publicUrl: deps.publicUrl,
    storage: deps.fileStorage,
    linkSecret: async () => (await deps.auth.$context).secret,
    subscriptions: {
      db: deps.db,
      publicUrl: deps.publicUrl,
      workflows: deps.workflows.subscriptions,
      tax: deps.tax,
    },
    paymentMethods: { db: deps.db, workflows: deps.workflows },
    customerPayments: { db: deps.db, workflows: deps.workflows.subscriptions },
  };
  router.use('/customer-portal', express.json({ limit: PUBLIC_BODY_LIMIT }));
  // A license key is checked from the buyer's machine: limited per address and per key, so
  // guessing keys is slow and one leaked key cannot flood the seller's counts.
  router.use(
    [
      '/customer-portal/license-keys/validate',
      '/customer-portal/license-keys/activate',
      '/customer-portal/license-keys/deactivate',
    ],
    rateLimit(deps.db, {
      limit: LICENSE_KEY_CHECKS_PER_MINUTE,
      key: perClientIp('license-keys'),
      logger: deps.logger,
    }),
    rateLimit(deps.db, { limit: LICENSE_KEY_CHECKS_PER_MINUTE, key: perLicenseKey, logger: deps.logger }),
  );
  // Sign-in codes are emailed and guessable in 10^6 tries: few a minute per email address.
  router.use(
    '/customer-portal/sign-in',
    // Per address, the API's own budget: many buyers may sit behind one office's address.
    rateLimit(deps.db, {
      limit: deps.rateLimitPerMinute,
      key: perClientIp('portal-sign-in'),
      logger: deps.logger,
    }),
    onlyWithEmail(
      rateLimit(deps.db, { limit: SIGN_IN_ATTEMPTS_PER_MINUTE, key: perSignInEmail, logger: deps.logger }),
    ),
  );
  router.use('/customer-portal', authenticateCustomer(deps.db));
  // Each request emails an address the buyer typed: a few a minute per customer, so the portal is
  // no way to flood someone's inbox. (The links' tokens are 192 random bits: the portal's own
  // budget per address below is all the guessing they need.)
  router.use(
    '/customer-portal/customers/me/email-update/request',
    rateLimit(deps.db, { limit: EMAIL_UPDATES_PER_MINUTE, key: perEmailUpdater, logger: deps.logger }),
  );
  router.use(
    '/customer-portal',
    rateLimit(deps.db, { limit: deps.rateLimitPerMinute, key: perCustomerOrAddress, logger: deps.logger }),
  );
  // In this order: it is the OpenAPI document's, and Express matches the first route that fits.
  registerPortalSignInOperations(registry, { ...portal, mailer: deps.mailer });
  registerPortalCustomerOperations(registry, portal);
  registerPortalEmailUpdateOperations(registry, { ...portal, mailer: deps.mailer });
  registerPortalPaymentMethodOperations(registry, portal);
  registerPortalSubscriptionOperations(registry, portal);
  registerPortalSeatOperations(registry, { ...portal, mailer: deps.mailer });
  registerPortalBenefitGrantOperations(registry, portal);
  registerPortalLicenseKeyOperations(registry, portal);
  registerPortalDownloadableOperations(registry, portal);
  registerPortalCustomerMeterOperations(registry, portal);
  registerPortalOrganizationOperations(registry, portal);
  registerPortalOrderOperations(registry, portal);
  registerPortalUpcomingInvoiceOperations(registry, { db: deps.db, tax: deps.tax });
  registerPortalOAuthAccountOperations(registry, {
    db: deps.db,
    publicUrl: deps.publicUrl,
    platforms: deps.accountPlatforms ?? NO_ACCOUNT_PLATFORMS,
    linkSecret: portal.linkSecret,
  });

  // A signed-in customer asking for a portal path nothing serves gets a 404, as for a missing
  // object; anyone else goes on to the sellers' authentication, which answers who may call.
  router.use('/customer-portal', (req, res, next) => {
    if (res.locals.customer) notFoundHandler(req, res, next);
    else next();
  });

  // The invited person's claim: the link's token is the credential, guessed no faster than a
  // sign-in code (per address).
  const seats = { db: deps.db, mailer: deps.mailer, publicUrl: deps.publicUrl };
  router.use(
    '/customer-seats/claim',
    rateLimit(deps.db, {
      limit: deps.rateLimitPerMinute,
      key: perClientIp('seat-claims'),
      logger: deps.logger,
    }),
    express.json({ limit: PUBLIC_BODY_LIMIT }),
  );
  registerSeatClaimOperations(registry, seats);

  // The OAuth server: each operation checks its own credential (client secret, registration token,
  // session, OAuth token). Limited per address, so guessing secrets is slow.
  router.use(OAUTH2_BROWSER_PATHS, oauth2BrowserCors);
  router.use(
    '/oauth2',
    rateLimit(deps.db, { limit: deps.rateLimitPerMinute, key: perClientIp('oauth2'), logger: deps.logger }),
    express.urlencoded({ extended: false, limit: PUBLIC_BODY_LIMIT }),
    express.json({ limit: PUBLIC_BODY_LIMIT }),
  );
  registerOAuth2Operations(registry, { db: deps.db, auth: deps.auth, publicUrl: deps.publicUrl });

  // Who calls is known before any body is read: an anonymous megabyte costs nothing to refuse.
  router.use(authenticate(deps.db, deps.auth, deps.accessTokens));
  router.use(rateLimit(deps.db, { limit: deps.rateLimitPerMinute, key: perCaller, logger: deps.logger }));
  router.use(express.json({ limit: CALLER_BODY_LIMIT }));
  router.use(idempotency(deps.db, deps.logger, deps.presence));
  registerOrganizationOperations(registry, deps);
  registerAccessTokenOperations(registry, deps);
  registerCustomerOperations(registry, deps);
  registerBenefitOperations(registry, deps);
  registerBenefitGrantOperations(registry, deps);
  registerLicenseKeyOperations(registry, deps);
  registerCustomerSeatOperations(registry, seats);
  registerDiscountOperations(registry, deps);
  registerCheckoutLinkOperations(registry, { db: deps.db, publicUrl: deps.publicUrl });
  registerProductOperations(registry, deps);
  registerFileOperations(registry, { db: deps.db, storage: deps.fileStorage, publicUrl: deps.publicUrl });
  registerCustomFieldOperations(registry, deps);
  registerMeterOperations(registry, deps);
  registerUsageOperations(registry, deps);
  registerEventTypeOperations(registry, deps);
  registerCustomerMeterOperations(registry, deps);
  registerCustomerSessionOperations(registry, portal);
  registerWebhookOperations(registry, {
    db: deps.db,
    webhooks: deps.workflows.webhooks,
    targets: deps.webhookSender,
  });
  registerCheckoutOperations(registry, checkouts);
  registerOrderOperations(registry, {
    db: deps.db,
    storage: deps.fileStorage,
    tax: deps.tax,
    workflows: deps.workflows.draftOrders,
  });
  registerSubscriptionOperations(registry, {
    db: deps.db,
    publicUrl: deps.publicUrl,
    workflows: deps.workflows.subscriptions,
    tax: deps.tax,
  });
  registerSubscriptionCreateOperation(registry, {
    db: deps.db,
    publicUrl: deps.publicUrl,
    workflows: deps.workflows.subscriptions,
    paymentProcessor: deps.sandbox ? 'sandbox' : 'stripe',
  });
  registerTestClockOperations(registry, {
    db: deps.db,
    sandbox: deps.sandbox,
    workflows: deps.workflows.subscriptions,
  });
  registerRefundOperations(registry, {
    db: deps.db,
    workflows: deps.workflows.refunds,
  });
  registerPaymentOperations(registry, { db: deps.db });
  registerDisputeOperations(registry, { db: deps.db, workflows: deps.workflows });
  registerMetricOperations(registry, { db: deps.db });
  registerSearchOperations(registry, { db: deps.db });
  router.use(notFoundHandler);
  return { router, registry, documentFor };
}
