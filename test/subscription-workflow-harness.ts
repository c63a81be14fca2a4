// The setting every subscription workflow test runs in (workflows/subscription*.wf.test.ts): a
// time-skipping Temporal server of each test and a database of the file, a plan bought with a saved card,
// a worker on a fresh task queue (optionally killed once after each of some steps), and what the
// tests read back from the database. Crash tests count what was written (orders, charges, grants,
// emails, webhooks) with `effectsOf`, not what the workflow says it did.
import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import proto from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { applyBenefitGrants, syncBenefitGrants } from '../domain/benefit-grants/service.js';
import { NO_ACCOUNT_PLATFORMS } from '../domain/customer-accounts/platforms.js';
import { markBenefitGrantsStale } from '../domain/customers/repository.js';
import type { PaymentMethodSummary, PaymentProcessor } from '../domain/payments/processor.js';
import { subscriptionWorkflowId, type RecurringInterval } from '../domain/subscriptions/rules.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { crashAfterEveryStep, crashOnceAfterEachStep } from './crash.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { requireTestEnv } from './env.js';
import { eventually } from './eventually.js';
import { createOrganization } from './factories.js';
import { createRecordingSink } from './stripe-factories.js';
import { timeSkippingServerOfTest } from './time-skipping.js';

const { EventType } = proto.temporal.api.enums.v1;

export const DAY_MS = 24 * 60 * 60 * 1000;
export const PUBLIC_URL = 'http://tollgate.test';

/**
 * Every step of the subscription workflow that writes: killing the worker after each of them once
 * covers every step boundary of a path (the reads, `loadSubscriptionState`, change nothing).
 */
export const WRITING_STEPS = [
  'renewSubscription',
  'collectSubscriptionOrder',
  'runPauseStep',
  'settleCustomerPayment',
  'notifySubscription',
  'notifySubscriptionPaymentFailed',
  'reportCaughtUpWithClock',
] as const;

export type PlanOptions = {
  name?: string;
  /** The price of one period, in cents. */
  amount?: number;
  interval?: RecurringInterval;
  count?: number;
  /** A free trial of this many days (the product's `trial_interval: day`). */
  trialDays?: number;
  /** A custom benefit comes with the plan: its grant is counted by `effectsOf`. */
  benefit?: boolean;
};

export type SubscribeOptions = PlanOptions & {
  card?: string;
  /** The plan to buy, made by `plan` beforehand (its options then describe it). */
  product?: { product: { id: string; organizationId: string }; price: { id: string } };
  /** Every price of the plan with its amount per period (default: the one `price` at `amount`). */
  prices?: { productPriceId: string; amount: number }[];
  /** The saved card's brand and last digits, as the buyer's emails name it (default: none). */
  cardSummary?: PaymentMethodSummary;
};

export type WorkerOptions = {
  /** Kills the worker once after each of these steps, recording them in `crashed`. */
  crashAfter?: readonly string[];
  crashed?: string[];
  /** Kills it after every run of those steps (default: `WRITING_STEPS`), not once per step. */
  everyStep?: boolean;
  processor?: PaymentProcessor;
  /** Sends the emails to this SMTP server too (test/smtp.ts), not only to the database. */
  smtpUrl?: string;
};

/** Registers the file's hooks (call it inside its `describe`) and answers its tools. */
export function subscriptionWorkflowHarness(queuePrefix = 'subscriptions') {
  const environment = timeSkippingServerOfTest();
  let testDatabase: TestDatabase | undefined;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });
  beforeEach(() => testDatabase!.reset());
  afterAll(async () => {
    await testDatabase?.drop();
  });

  const harness = {
    get env(): TestWorkflowEnvironment {
      return environment();
    },
    get database(): TestDatabase {
      return testDatabase!;
    },
    get db() {
      return testDatabase!.db;
    },
  };
  const env = () => harness.env;
  const db = () => harness.db;

  const processor = () => createSandboxProcessor({ db: db(), sink: createRecordingSink() });
  const workflowsOn = (taskQueue: string) => temporalSubscriptionWorkflows(env().client, taskQueue);

  /** A recurring product of the organization with its one fixed price (15.00 a month by default). */
  async function plan(organizationId: string, options: PlanOptions = {}) {
    const interval = options.interval ?? 'month';
    const product = await db().product.create({
      data: {
        organizationId,
        name: options.name ?? 'Pro plan',
        recurringInterval: interval,
        recurringIntervalCount: options.count ?? 1,
        ...(options.trialDays ? { trialInterval: 'day', trialIntervalCount: options.trialDays } : {}),
      },
    });
    const price = await db().productPrice.create({
      data: {
        organizationId,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: interval,
        priceCurrency: 'usd',
        priceAmount: options.amount ?? 1500,
      },
    });
    if (options.benefit) {
      const benefit = await db().benefit.create({
        data: {
          organizationId,
          type: 'custom',
          description: `${product.name} perks`,
          properties: { note: null },
        },
      });
      await db().productBenefit.create({ data: { productId: product.id, benefitId: benefit.id, order: 0 } });
    }
    return { product, price };
  }

  /**
   * A plan bought now (the test server's clock) with `card` saved, its first period paid (or its
   * free trial begun), as a checkout's fulfilment leaves it: the customer's grants to bring about.
   */
  async function subscribe(options: SubscribeOptions = {}) {
    const interval = options.interval ?? 'month';
    const amount = options.amount ?? 1500;
    const organizationId = options.product?.product.organizationId ?? (await createOrganization(db())).id;
    const { product, price } = options.product ?? (await plan(organizationId, options));
    const customer = await db().customer.create({
      data: { organizationId, email: `buyer-${product.id}@example.test`, name: 'Ada' },
    });
    const { processorCustomerId } = await processor().ensureCustomer({
      idempotencyKey: `test:${customer.id}`,
      email: customer.email,
      name: customer.name,
      customerId: customer.id,
    });
    const at = new Date(await env().currentTimeMs());
    const trialEnd = options.trialDays ? new Date(at.getTime() + options.trialDays * DAY_MS) : null;
    const subscription = await db().$transaction(async (tx) => {
      const row = await startSubscription(
        tx,
        {
          organizationId,
          customerId: customer.id,
          productId: product.id,
          checkoutId: null,
          recurringInterval: interval,
          recurringIntervalCount: options.count ?? 1,
          currency: 'usd',
          prices: options.prices ?? [{ productPriceId: price.id, amount }],
          amount,
          discountId: null,
          metadata: {},
          customFieldData: {},
          paymentProcessor: 'sandbox',
          savedPaymentMethod: {
            paymentMethodId: options.card ?? 'pm_card_visa',
            processorCustomerId,
            summary: options.cardSummary ?? null,
            expiry: null,
          },
          at,
          trialEnd,
        },
        PUBLIC_URL,
      );
      await markBenefitGrantsStale(tx, [customer.id]);
      return row;
    });
    return { subscription, processorCustomerId, at, trialEnd, product, price };
  }

  /** The subscriptions started on each worker's task queue, which that worker ends. */
  const started = new Map<string, string[]>();
  const handleOf = (subscriptionId: string, client = env().client) =>
    client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
  const start = (taskQueue: string, subscriptionId: string) => {
    started.set(taskQueue, [...(started.get(taskQueue) ?? []), subscriptionId]);
    return workflowsOn(taskQueue).start(subscriptionId);
  };

  /**
   * Until the subscription's workflow has ended or waits for something (no step, local activity
   * or email in flight, and the server holds no task of it either); answers its `waitingFor`
   * sentence then, or null once it has ended.
   *
   * It is queried only with no workflow task in flight. The test server keeps a query that
   * arrives during a workflow task for that task's completion, and refuses the completion when
   * the task continues as new ("workflow execution already completed"; the worker logs "Task not
   * found when completing"): the old run's time lock is never released, so the clock stops
   * skipping, and the query is never answered. The test server's `describe` never shows a pending
   * workflow task, so the history's last event tells; a working run goes from activity to task to
   * the next run's task without a gap either shows.
   */
  async function parked(
    subscriptionId: string,
    timeoutMs = 20_000,
    client = env().client,
  ): Promise<string | null> {
    const handle = handleOf(subscriptionId, client);
    const idle = async () => {
      const { raw } = await handle.describe();
      if (raw.pendingWorkflowTask || (raw.pendingActivities ?? []).length > 0) return false;
      const last = (await handle.fetchHistory()).events?.at(-1)?.eventType;
      return (
        last !== EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED &&
        last !== EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED
      );
    };
    const read = async () => {
      const before = await handle.describe();
      if (before.status.name !== 'RUNNING') return { ended: true, waitingFor: null, idle: true };
      if (!(await idle())) return { ended: false, waitingFor: null, idle: false };
      const waitingFor = await handle.query<string>('waitingFor');
      // Read after the answer: a task the server handed out meanwhile (a timer that fired) shows.
      return { ended: false, waitingFor, idle: await idle() };
    };
    const state = await eventually(
      read,
      ({ ended, waitingFor, idle }) => ended || (idle && !waitingFor!.startsWith('its own work')),
      timeoutMs,
    );
    return state.waitingFor;
  }

  /** Runs `work` with a worker of the subscription workflow on a task queue of its own. */
  async function withWorker<T>(work: (taskQueue: string) => Promise<T>, options: WorkerOptions = {}) {
    const taskQueue = `${queuePrefix}-${crypto.randomUUID()}`;
    const crashAfter = options.crashAfter ?? (options.crashed ? WRITING_STEPS : undefined);
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      ...(crashAfter
        ? {
            interceptors: {
              activity: [
                (options.everyStep ? crashAfterEveryStep : crashOnceAfterEachStep)(
                  crashAfter,
                  options.crashed ?? [],
                ),
              ],
            },
          }
        : {}),
      activities: createSubscriptionActivities({
        db: db(),
        publicUrl: PUBLIC_URL,
        mailer: createMailer({
          db: db(),
          ...(options.smtpUrl ? { smtpUrl: options.smtpUrl } : {}),
          from: 'shop@example.test',
          logger: pino({ level: 'silent' }),
        }),
        processor: options.processor ?? processor(),
        tax: noTax,
        workflows: { subscriptions: workflowsOn(taskQueue) },
      }),
    });
    // A workflow left running (a renewing plan, or a failed assertion) would keep the worker from
    // shutting down: each test's are ended with it, once parked (ended with a task in flight, a
    // workflow leaves the time-skipping server's clock locked); one that never parks (a failed
    // test) is ended all the same, and its server goes with the test (test/time-skipping.ts).
    // The test's own server and workflows: a test that timed out ends its runs here still, on its
    // server, while the retry runs on another.
    const { client } = env();
    return worker.runUntil(async () => {
      try {
        return await work(taskQueue);
      } finally {
        const ids = started.get(taskQueue) ?? [];
        started.delete(taskQueue);
        for (const id of ids) {
          await parked(id, undefined, client).catch(() => undefined);
          const handle = handleOf(id, client);
          // A test that timed out may find its server gone already: nothing is left to end then.
          const description = await handle.describe().catch(() => null);
          if (description?.status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }

  const rowOf = (subscriptionId: string) =>
    db().subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
  const ordersOf = (subscriptionId: string) =>
    db().order.findMany({
      where: { subscriptionId },
      orderBy: { createdAt: 'asc' },
      include: { items: true },
    });
  /** The processor's charges of the subscription's orders (each keyed by its order and try). */
  const chargesOf = (subscriptionId: string) =>
    db().sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` } },
      orderBy: { createdAt: 'asc' },
    });
  const eventTypes = async (organizationId: string) =>
    (await db().outboxEvent.findMany({ where: { organizationId }, orderBy: { sequence: 'asc' } })).map(
      (event) => event.type,
    );

  /** Lets the server's clock run to `days` after the end of the subscription's current period. */
  async function sleepPastPeriodEnd(subscriptionId: string, days: number) {
    const { currentPeriodEnd } = await rowOf(subscriptionId);
    await env().sleep(currentPeriodEnd.getTime() - (await env().currentTimeMs()) + days * DAY_MS);
  }
  /** Lets the server's clock run to `at` plus `days`. */
  async function sleepUntil(at: Date, days = 0) {
    await env().sleep(at.getTime() - (await env().currentTimeMs()) + days * DAY_MS);
  }

  /** What a seller's or buyer's change needs (the API's context, on this worker's queue). */
  const changeContext = (taskQueue: string) => ({
    db: db(),
    publicUrl: PUBLIC_URL,
    tax: noTax,
    workflows: workflowsOn(taskQueue),
  });

  /**
   * Brings the marked customers' benefit grants about as the grant dispatcher and workflows would
   * (they run on a worker of their own in production): one sync, then each pair's steps.
   */
  async function settleGrants() {
    for (;;) {
      const { customers, pairs } = await syncBenefitGrants(db());
      for (const pair of pairs) await applyBenefitGrants({ db: db(), platforms: NO_ACCOUNT_PLATFORMS }, pair);
      if (customers === 0) return;
    }
  }

  /**
   * What the subscription has written, counted in the database: its orders, its charges, its
   * customer's benefit grants (after `settleGrants`), the emails to its customer and the
   * webhooks of its organization, by type.
   */
  async function effectsOf(subscriptionId: string) {
    const row = await db().subscription.findUniqueOrThrow({
      where: { id: subscriptionId },
      include: { customer: true },
    });
    const orders = await ordersOf(subscriptionId);
    const charges = await chargesOf(subscriptionId);
    const grants = await db().benefitGrant.findMany({ where: { customerId: row.customerId } });
    const emails = await db().emailMessage.findMany({
      where: { toAddress: row.customer.email },
      orderBy: { createdAt: 'asc' },
    });
    const events: Record<string, number> = {};
    for (const type of await eventTypes(row.organizationId)) events[type] = (events[type] ?? 0) + 1;
    return {
      orders: orders.map((order) => ({
        requestKey: order.requestKey,
        status: order.status,
        total: order.totalAmount,
      })),
      charges: charges.map((charge) => ({
        key: charge.idempotencyKey,
        status: charge.status,
        amount: charge.amount,
      })),
      grants: grants.map((grant) => ({
        held: grant.grantedAt !== null && grant.revokedAt === null,
        revoked: grant.revokedAt !== null,
        cyclesRequested: grant.cyclesRequested,
        cyclesApplied: grant.cyclesApplied,
      })),
      emails: emails.map((email) => email.subject),
      events,
    };
  }

  return Object.assign(harness, {
    processor,
    workflowsOn,
    plan,
    subscribe,
    withWorker,
    start,
    handleOf,
    parked,
    rowOf,
    ordersOf,
    chargesOf,
    eventTypes,
    sleepPastPeriodEnd,
    sleepUntil,
    changeContext,
    settleGrants,
    effectsOf,
  });
}

export type SubscriptionWorkflowHarness = ReturnType<typeof subscriptionWorkflowHarness>;
