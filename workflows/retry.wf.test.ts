import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createCheckoutActivities } from '../activities/checkouts.js';
import { createProcessorConfigurationActivities } from '../activities/processor-configuration.js';
import { getClientCheckout } from '../domain/checkouts/client.js';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { entitySearchAttributes, PROCESSOR_PROBLEM, WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { PaymentProcessorError, refusedPaymentNotice } from '../domain/payments/errors.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { ProcessorFailureClass } from '../domain/payments/rules.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalCheckoutWorkflows } from '../temporal/checkouts.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { eventually } from '../test/eventually.js';
import { createOrganization } from '../test/factories.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The sandbox, except that `pay` fails with `failureClass` while `failing()` says so; `payments`
 * counts every call, failed or not.
 */
function failingPayments(
  sandbox: PaymentProcessor,
  failure: { failureClass: ProcessorFailureClass; code: string; message: string },
  failing: () => boolean,
): PaymentProcessor & { payments: number } {
  const processor = {
    ...sandbox,
    payments: 0,
    async pay(input: Parameters<PaymentProcessor['pay']>[0]) {
      processor.payments += 1;
      if (failing()) throw new PaymentProcessorError(failure.code, failure.message, failure.failureClass);
      return sandbox.pay(input);
    },
  };
  return processor;
}

describe('the retry contract (time-skipping): a checkout whose charge fails', () => {
  let env: TestWorkflowEnvironment;
  let database: TestDatabase;

  beforeAll(async () => {
    env = await createTimeSkippingEnvironment();
    database = await createTestDatabase();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await env?.teardown();
    await database?.drop();
  });

  const sandbox = () => createSandboxProcessor({ db: database.db, sink: createRecordingSink() });

  /** A confirmed 10.00 checkout of a one-time product, paid with the sandbox's Visa. */
  async function confirmedCheckout() {
    const db = database.db;
    const organization = await createOrganization(db);
    const product = await db.product.create({ data: { organizationId: organization.id, name: 'Guide' } });
    const price = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'one_time',
        priceCurrency: 'usd',
        priceAmount: 1000,
      },
    });
    return db.checkout.create({
      data: {
        organizationId: organization.id,
        status: 'confirmed',
        clientSecret: `secret-${randomUUID()}`,
        // The server's clock, not the wall clock: earlier tests moved it ahead.
        expiresAt: new Date((await env.currentTimeMs()) + HOUR_MS),
        productIds: [product.id],
        productId: product.id,
        productPriceId: price.id,
        currency: 'usd',
        amount: 1000,
        discountAmount: 0,
        netAmount: 1000,
        taxAmount: 0,
        totalAmount: 1000,
        customerEmail: 'buyer@example.test',
        paymentProcessor: 'sandbox',
        confirmationTokenId: 'pm_card_visa',
        paymentAttempt: 1,
      },
    });
  }

  async function withWorker<T>(processor: PaymentProcessor, work: (taskQueue: string) => Promise<T>) {
    const taskQueue = `retry-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: {
        ...createCheckoutActivities({
          db: database.db,
          publicUrl: 'http://tollgate.test',
          processor,
          processorMetadata: {},
          mailer: createMailer({
            db: database.db,
            from: 'shop@example.test',
            logger: pino({ level: 'silent' }),
          }),
          workflows: {
            checkouts: temporalCheckoutWorkflows(env.client, taskQueue),
            subscriptions: temporalSubscriptionWorkflows(env.client, taskQueue),
          },
        }),
        ...createProcessorConfigurationActivities({ db: database.db, processor }),
      },
    });
    return worker.runUntil(work(taskQueue));
  }

  /** Started as the API starts it: with Tollgate's search attributes, so the workflow may mark itself. */
  const start = (taskQueue: string, checkout: { id: string; organizationId: string }) =>
    env.client.workflow.start('checkoutWorkflow', {
      workflowId: checkoutWorkflowId(checkout.id),
      taskQueue,
      args: [{ checkoutId: checkout.id }],
      typedSearchAttributes: entitySearchAttributes({
        kind: 'checkout',
        id: checkout.id,
        organizationId: checkout.organizationId,
        status: 'confirmed',
      }),
    });

  it('permanent: a charge the processor refuses is asked once; the seller reads the reason, the buyer plain words', async () => {
    const checkout = await confirmedCheckout();
    const processor = failingPayments(
      sandbox(),
      {
        failureClass: 'permanent',
        code: 'idempotency_error',
        message: "Idempotency key 'checkout:1:payment:1' was first used with other parameters.",
      },
      () => true,
    );
    const reason =
      "The payment processor refused the request (idempotency_error): Idempotency key 'checkout:1:payment:1' was first used with other parameters.";
    const { outcome, buyerView } = await withWorker(processor, async (taskQueue) => {
      const handle = await start(taskQueue, checkout);
      // What the client API answers the hosted page while the buyer may confirm again.
      await eventually(
        () => database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } }),
        (row) => row.status === 'failed',
      );
      const shown = await getClientCheckout(
        {
          db: database.db,
          publicUrl: 'http://tollgate.test',
          processorMetadata: {},
          tax: noTax,
          workflows: temporalCheckoutWorkflows(env.client, taskQueue),
          checkoutTtlMs: HOUR_MS,
        },
        checkout.clientSecret,
      );
      // Nobody confirms again here: the checkout expires.
      return { outcome: await handle.result(), buyerView: shown };
    });
    expect(outcome).toBe('expired');
    const seller = await database.db.organization.findUniqueOrThrow({
      where: { id: checkout.organizationId },
    });
    expect(buyerView.payment_processor_metadata.failure_reason).toBe(refusedPaymentNotice(seller.name));
    expect(JSON.stringify(buyerView)).not.toMatch(/idempotency|checkout:1:payment:1|refused the request/i);
    expect(processor.payments).toBe(1);
    const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(row).toMatchObject({ failureReason: reason, isPaymentRefused: true });
    const events = await database.db.outboxEvent.findMany({
      where: { organizationId: checkout.organizationId, type: 'checkout.updated' },
      orderBy: { sequence: 'asc' },
    });
    type CheckoutEvent = {
      data: { status: string; payment_processor_metadata: Record<string, string> };
    };
    const payloads = events.map((event) => event.payload as CheckoutEvent);
    expect(payloads.map((payload) => payload.data.status)).toEqual(['failed', 'expired']);
    // The seller's webhook (and API) keep the processor's words.
    expect(payloads[0]!.data.payment_processor_metadata.failure_reason).toBe(reason);
  });

  it('transient: a charge the processor could not take is retried and then succeeds', async () => {
    const checkout = await confirmedCheckout();
    let failures = 2;
    const processor = failingPayments(
      sandbox(),
      { failureClass: 'transient', code: 'StripeConnectionError', message: 'Could not connect to Stripe.' },
      () => failures-- > 0,
    );
    const outcome = await withWorker(processor, async (taskQueue) =>
      (await start(taskQueue, checkout)).result(),
    );
    expect(outcome).toBe('succeeded');
    expect(processor.payments).toBe(3);
    const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(row.failureReason).toBeNull();
    expect(await database.db.processorConfigurationProblem.count()).toBe(0);
  });

  it('configuration: a refused key holds the charge back, says so and marks the run, and clears once fixed', async () => {
    const checkout = await confirmedCheckout();
    let fixed = false;
    const processor = failingPayments(
      sandbox(),
      {
        failureClass: 'configuration',
        code: 'StripeAuthenticationError',
        message: 'Invalid API Key provided: sk_test_****cdef.',
      },
      () => !fixed,
    );
    await withWorker(processor, async (taskQueue) => {
      const handle = await start(taskQueue, checkout);
      // The workflow waits a minute between tries; the server's clock only runs ahead while a
      // result is awaited, so the held-back state stays in view until then.
      const waitingFor = await eventually(
        () => handle.query<string>(WAITING_FOR_QUERY),
        (sentence) => sentence.startsWith("the payment processor's key or account to be fixed"),
      );
      expect(waitingFor).toMatch(
        /^the payment processor's key or account to be fixed \(StripeAuthenticationError\), until the step is tried again at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
      const marked = await eventually(
        async () => (await handle.describe()).typedSearchAttributes.get(PROCESSOR_PROBLEM),
        (value) => value !== undefined,
      );
      expect(marked).toBe('configuration');
      const problem = await database.db.processorConfigurationProblem.findUniqueOrThrow({
        where: { organizationId: checkout.organizationId },
      });
      expect(problem).toMatchObject({
        processor: 'sandbox',
        code: 'StripeAuthenticationError',
        message: 'Invalid API Key provided: sk_test_****cdef.',
      });
      const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
      expect(row.status).toBe('confirmed');

      fixed = true;
      expect(await handle.result()).toBe('succeeded');
      expect((await handle.describe()).typedSearchAttributes.get(PROCESSOR_PROBLEM)).toBeUndefined();
    });
    expect(processor.payments).toBeGreaterThanOrEqual(2);
    expect(await database.db.processorConfigurationProblem.count()).toBe(0);
  });
});
