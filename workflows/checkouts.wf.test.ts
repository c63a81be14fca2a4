import type { WorkflowHandle } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createCheckoutActivities } from '../activities/checkouts.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { temporalCheckoutWorkflows } from '../temporal/checkouts.js';
import {
  AUTHENTICATION_LIMIT_MS,
  AUTHENTICATION_TIMEOUT_MESSAGE,
  CHECKOUT_SIGNALS,
  checkoutWorkflowId,
} from '../domain/checkouts/rules.js';
import type { PaymentProcessor, RefundInput } from '../domain/payments/processor.js';
import { authenticateSandboxPayment, createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';
import type { CheckoutOutcome } from './checkouts.js';

const HOUR_MS = 60 * 60 * 1000;

/** Stripe at the edge: a payment that stays "processing" until its webhook arrives (bank delays). */
function processingProcessor(): PaymentProcessor & { payments: string[]; refunds: RefundInput[] } {
  const payments: string[] = [];
  const refunds: RefundInput[] = [];
  return {
    name: 'sandbox',
    payments,
    refunds,
    ensureCustomer: async () => ({ processorCustomerId: 'cus_test' }),
    pay: async (input) => {
      payments.push(input.idempotencyKey);
      return { status: 'processing', paymentId: `pi_${input.idempotencyKey}` };
    },
    setUpOffSession: async () => {
      throw new Error('no card is set up in a checkout of a one-time product');
    },
    cancelPayment: async () => {
      throw new Error('a processing payment is never canceled');
    },
    refund: async (input) => {
      refunds.push(input);
      return { status: 'succeeded', processorRefundId: `re_${refunds.length}` };
    },
    savedPaymentMethod: async () => null,
    detachPaymentMethod: async () => {},
    closeDispute: async () => ({ status: 'lost' as const }),
    chargeOffSession: async () => {
      throw new Error('no renewal is charged in a checkout test');
    },
  };
}

describe('checkoutWorkflow (time-skipping)', () => {
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

  async function createCheckout(
    status: 'open' | 'confirmed',
    paymentMethod = 'pm_card_visa',
    expiresInMs = HOUR_MS,
  ) {
    const organization = await createOrganization(database.db);
    const product = await database.db.product.create({
      data: { organizationId: organization.id, name: 'Guide' },
    });
    const price = await database.db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'one_time',
        priceCurrency: 'usd',
        priceAmount: 1000,
      },
    });
    return database.db.checkout.create({
      data: {
        organizationId: organization.id,
        status,
        clientSecret: `secret-${randomUUID()}`,
        // The server's clock, not the wall clock: earlier tests moved it ahead.
        expiresAt: new Date((await env.currentTimeMs()) + expiresInMs),
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
        confirmationTokenId: status === 'confirmed' ? paymentMethod : null,
        paymentAttempt: status === 'confirmed' ? 1 : 0,
      },
    });
  }

  async function withWorker<T>(processor: PaymentProcessor, work: (taskQueue: string) => Promise<T>) {
    const taskQueue = `checkouts-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createCheckoutActivities({
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
    });
    return worker.runUntil(work(taskQueue));
  }

  const start = (taskQueue: string, checkoutId: string) =>
    env.client.workflow.start('checkoutWorkflow', {
      workflowId: checkoutWorkflowId(checkoutId),
      taskQueue,
      args: [{ checkoutId }],
    });

  it('expires an open checkout after its hour, with checkout.updated and checkout.expired events', async () => {
    const checkout = await createCheckout('open');
    const outcome = await withWorker(processingProcessor(), async (taskQueue) => {
      const handle = await start(taskQueue, checkout.id);
      return (await handle.result()) as CheckoutOutcome;
    });
    expect(outcome).toBe('expired');
    const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
    expect(row.status).toBe('expired');
    const events = await database.db.outboxEvent.findMany({
      where: { organizationId: checkout.organizationId },
    });
    expect(events.map((event) => event.type)).toEqual(['checkout.updated', 'checkout.expired']);
  });

  describe('started as the API starts a new checkout: with its expiry', () => {
    const startNew = (taskQueue: string, checkout: { id: string; expiresAt: Date }) =>
      env.client.workflow.start('checkoutWorkflow', {
        workflowId: checkoutWorkflowId(checkout.id),
        taskQueue,
        args: [{ checkoutId: checkout.id, expiresAtMs: checkout.expiresAt.getTime() }],
      });

    // The run is ended by the processor's event, not terminated: a run terminated while its charge
    // activity is still in flight leaves the time-skipping server's clock locked for every later test.
    const settleWithPayment = async (handle: WorkflowHandle, checkoutId: string) => {
      await handle.signal(CHECKOUT_SIGNALS.payment, {
        type: 'payment.succeeded',
        paymentId: `pi_checkout:${checkoutId}:payment:1`,
      });
      expect(await handle.result()).toBe('succeeded');
    };

    it('expires an abandoned checkout with one local activity and no other', async () => {
      const checkout = await createCheckout('open');
      const history = await withWorker(processingProcessor(), async (taskQueue) => {
        const handle = await startNew(taskQueue, checkout);
        expect(await handle.result()).toBe('expired');
        return (await handle.fetchHistory()).events ?? [];
      });
      expect(history.filter((event) => event.activityTaskScheduledEventAttributes)).toHaveLength(0);
      expect(history.filter((event) => event.timerFiredEventAttributes)).toHaveLength(1);
      expect(
        history.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_local_activity'),
      ).toHaveLength(1);
      const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
      expect(row.status).toBe('expired');
      const events = await database.db.outboxEvent.findMany({
        where: { organizationId: checkout.organizationId },
      });
      expect(events.map((event) => event.type)).toEqual(['checkout.updated', 'checkout.expired']);
    });

    it('charges a confirmation that arrives while it waits', async () => {
      const checkout = await createCheckout('open');
      const processor = processingProcessor();
      await withWorker(processor, async (taskQueue) => {
        const handle = await startNew(taskQueue, checkout);
        await database.db.checkout.update({
          where: { id: checkout.id },
          data: { status: 'confirmed', confirmationTokenId: 'pm_card_visa', paymentAttempt: 1 },
        });
        await handle.signal(CHECKOUT_SIGNALS.confirmed, { attempt: 1 });
        for (let attempt = 0; attempt < 100 && processor.payments.length === 0; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await settleWithPayment(handle, checkout.id);
      });
      expect(processor.payments).toEqual([`checkout:${checkout.id}:payment:1`]);
    });

    it('does not expire a checkout confirmed without a word to it: at the expiry it reads the row and charges', async () => {
      // Two seconds by the server's clock, waited in real time: the wait ends on its own timer.
      const checkout = await createCheckout('open', 'pm_card_visa', 2000);
      const processor = processingProcessor();
      const status = await withWorker(processor, async (taskQueue) => {
        const handle = await startNew(taskQueue, checkout);
        // The confirmation's signal was lost (the API died after its commit).
        await database.db.checkout.update({
          where: { id: checkout.id },
          data: { status: 'confirmed', confirmationTokenId: 'pm_card_visa', paymentAttempt: 1 },
        });
        for (let attempt = 0; attempt < 200 && processor.payments.length === 0; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const beforeItsEvent = (await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } }))
          .status;
        await settleWithPayment(handle, checkout.id);
        return beforeItsEvent;
      });
      expect(status).toBe('confirmed');
      expect(processor.payments).toEqual([`checkout:${checkout.id}:payment:1`]);
    });
  });

  it('never expires a confirmed checkout whose payment is processing; the processor event completes it', async () => {
    const checkout = await createCheckout('confirmed');
    const processor = processingProcessor();
    const outcome = await withWorker(processor, async (taskQueue) => {
      const handle = await start(taskQueue, checkout.id);
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
        if (row.paymentId) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Two hours later by the server's clock (past the expiry), the bank answers.
      await env.sleep(2 * HOUR_MS);
      expect((await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe(
        'confirmed',
      );
      await handle.signal(CHECKOUT_SIGNALS.payment, {
        type: 'payment.succeeded',
        paymentId: `pi_checkout:${checkout.id}:payment:1`,
      });
      return (await handle.result()) as CheckoutOutcome;
    });
    expect(outcome).toBe('succeeded');
    expect(processor.payments).toEqual([`checkout:${checkout.id}:payment:1`]);
    const orders = await database.db.order.findMany({ where: { checkoutId: checkout.id } });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      status: 'paid',
      totalAmount: 1000,
      paymentId: `pi_checkout:${checkout.id}:payment:1`,
    });
  });

  describe('payments the checkout cannot take', () => {
    const paymentOf = (checkoutId: string, attempt: number) => `pi_checkout:${checkoutId}:payment:${attempt}`;

    it('refunds a payment that settles after its checkout failed and expired, and makes no order', async () => {
      const checkout = await createCheckout('confirmed');
      const processor = processingProcessor();
      const outcome = await withWorker(processor, async (taskQueue) => {
        const handle = await start(taskQueue, checkout.id);
        // The bank takes longer than the 3 days a processing payment is given: failed, then expired.
        expect(await handle.result()).toBe('expired');
        // Days later the bank settles: the event starts a new run, which gives the money back.
        const late = await env.client.workflow.signalWithStart('checkoutWorkflow', {
          workflowId: checkoutWorkflowId(checkout.id),
          taskQueue,
          args: [{ checkoutId: checkout.id }],
          signal: CHECKOUT_SIGNALS.payment,
          signalArgs: [{ type: 'payment.succeeded', paymentId: paymentOf(checkout.id, 1) }],
        });
        return (await late.result()) as CheckoutOutcome;
      });
      expect(outcome).toBe('expired');
      expect(processor.refunds).toEqual([
        expect.objectContaining({
          idempotencyKey: `checkout:${checkout.id}:orphan:${paymentOf(checkout.id, 1)}`,
          paymentId: paymentOf(checkout.id, 1),
          amount: null,
        }),
      ]);
      expect(await database.db.order.count({ where: { checkoutId: checkout.id } })).toBe(0);
    });

    it('refunds a payment that settles after its checkout failed: the buyer was told they were not charged', async () => {
      const checkout = await createCheckout('confirmed', 'pm_card_visa', 10 * 24 * HOUR_MS);
      const processor = processingProcessor();
      await withWorker(processor, async (taskQueue) => {
        const handle = await start(taskQueue, checkout.id);
        // Past the 3 days a processing payment is given, well before the checkout's expiry.
        await env.sleep(4 * 24 * HOUR_MS);
        let failed = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
        for (let attempt = 0; attempt < 100 && failed.status !== 'failed'; attempt += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          failed = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
        }
        expect(failed).toMatchObject({ status: 'failed', paymentId: paymentOf(checkout.id, 1) });
        await handle.signal(CHECKOUT_SIGNALS.payment, {
          type: 'payment.succeeded',
          paymentId: paymentOf(checkout.id, 1),
        });
        // Refunded, the checkout stays failed and ends at its expiry like any checkout left behind.
        expect(await handle.result()).toBe('expired');
      });
      expect(processor.refunds.map((refund) => refund.paymentId)).toEqual([paymentOf(checkout.id, 1)]);
      expect(await database.db.order.count({ where: { checkoutId: checkout.id } })).toBe(0);
    });

    it("fulfils with the current attempt's payment and refunds an earlier attempt's that settles later", async () => {
      const checkout = await createCheckout('confirmed');
      const processor = processingProcessor();
      const outcome = await withWorker(processor, async (taskQueue) => {
        const handle = await start(taskQueue, checkout.id);
        for (let attempt = 0; attempt < 100; attempt += 1) {
          const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkout.id } });
          if (row.paymentId) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The buyer gave up on attempt 1 (its checkout failed) and confirmed attempt 2, whose
        // payment is the one in progress now.
        await database.db.checkout.update({
          where: { id: checkout.id },
          data: { paymentAttempt: 2, paymentId: paymentOf(checkout.id, 2) },
        });
        await handle.signal(CHECKOUT_SIGNALS.payment, {
          type: 'payment.succeeded',
          paymentId: paymentOf(checkout.id, 1),
        });
        await handle.signal(CHECKOUT_SIGNALS.payment, {
          type: 'payment.succeeded',
          paymentId: paymentOf(checkout.id, 2),
        });
        return (await handle.result()) as CheckoutOutcome;
      });
      expect(outcome).toBe('succeeded');
      const orders = await database.db.order.findMany({ where: { checkoutId: checkout.id } });
      expect(orders.map((order) => order.paymentId)).toEqual([paymentOf(checkout.id, 2)]);
      expect(processor.refunds.map((refund) => refund.paymentId)).toEqual([paymentOf(checkout.id, 1)]);
    });
  });

  describe('3-D Secure with the sandbox processor', () => {
    async function waitForCheckout(
      checkoutId: string,
      isReady: (row: Awaited<ReturnType<typeof database.db.checkout.findUniqueOrThrow>>) => boolean,
    ) {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const row = await database.db.checkout.findUniqueOrThrow({ where: { id: checkoutId } });
        if (isReady(row)) return row;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`checkout ${checkoutId} did not get there in time`);
    }
    const waitForAuthentication = (checkoutId: string) =>
      waitForCheckout(checkoutId, (row) => row.paymentClientSecret !== null);

    it('cancels a payment the buyer never authenticated, fails the checkout with a reason, then expires it', async () => {
      const checkout = await createCheckout('confirmed', 'pm_card_authenticationRequired');
      const outcome = await withWorker(
        createSandboxProcessor({ db: database.db, sink: { deliver: async () => undefined } }),
        async (taskQueue) => {
          const handle = await start(taskQueue, checkout.id);
          const waiting = await waitForAuthentication(checkout.id);
          expect(waiting.status).toBe('confirmed');
          await env.sleep(AUTHENTICATION_LIMIT_MS + 60_000);
          const failed = await waitForCheckout(checkout.id, (row) => row.status !== 'confirmed');
          expect(failed).toMatchObject({
            status: 'failed',
            failureReason: AUTHENTICATION_TIMEOUT_MESSAGE,
            paymentClientSecret: null,
          });
          const payment = await database.db.sandboxPayment.findUniqueOrThrow({
            where: { id: waiting.paymentId! },
          });
          expect(payment.status).toBe('canceled');
          // Authenticating now changes nothing: the payment was canceled.
          const late = await authenticateSandboxPayment(
            { db: database.db, sink: { deliver: async () => undefined } },
            { paymentId: payment.id, clientSecret: payment.clientSecret!, outcome: 'complete' },
          );
          expect(late).toMatchObject({ status: 'failed', declineCode: 'canceled' });
          return (await handle.result()) as CheckoutOutcome;
        },
      );
      // The failed checkout still expires at its hour, as any checkout the buyer left.
      expect(outcome).toBe('expired');
      expect(await database.db.order.count({ where: { checkoutId: checkout.id } })).toBe(0);
    });

    it('fulfils when the buyer authenticated but the event was lost: the cancel finds the payment succeeded', async () => {
      const checkout = await createCheckout('confirmed', 'pm_card_authenticationRequired');
      const lostEvents = {
        deliver: async () => {
          throw new Error('the event never reached the workflow');
        },
      };
      const outcome = await withWorker(
        createSandboxProcessor({ db: database.db, sink: lostEvents }),
        async (taskQueue) => {
          const handle = await start(taskQueue, checkout.id);
          const waiting = await waitForAuthentication(checkout.id);
          await expect(
            authenticateSandboxPayment(
              { db: database.db, sink: lostEvents },
              {
                paymentId: waiting.paymentId!,
                clientSecret: waiting.paymentClientSecret!,
                outcome: 'complete',
              },
            ),
          ).rejects.toThrow('the event never reached the workflow');
          await env.sleep(AUTHENTICATION_LIMIT_MS + 60_000);
          return (await handle.result()) as CheckoutOutcome;
        },
      );
      expect(outcome).toBe('succeeded');
      const orders = await database.db.order.findMany({ where: { checkoutId: checkout.id } });
      expect(orders).toHaveLength(1);
      expect(orders[0]!.status).toBe('paid');
    });
  });
});
