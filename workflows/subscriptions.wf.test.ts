import { readFileSync } from 'node:fs';
import proto from '@temporalio/proto';
import type { PaymentProcessor, ProcessorEvent, ProcessorEventSink } from '../domain/payments/processor.js';
import { processorEventRouter } from '../domain/payments/events.js';
import { PaymentProcessorError, refusedPaymentNotice } from '../domain/payments/errors.js';
import {
  confirmCustomerOrderPayment,
  customerOrderPaymentStatus,
  payOrderAsCustomer,
} from '../domain/subscriptions/customer-payments.js';
import { retryCustomerSubscriptionPayment } from '../domain/subscriptions/customer-changes.js';
import { eventually } from '../test/eventually.js';
import { describe, expect, it } from '@jest/globals';
import { Worker } from '@temporalio/worker';
import { addCalendarMonths, type CustomerPaymentInput } from '../domain/subscriptions/rules.js';
import { keepPaymentMethod } from '../domain/payment-methods/service.js';
import { noTax } from '../domain/tax/rules.js';
import { authenticateSandboxPayment, createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { requireTestEnv } from '../test/env.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { DAY_MS, subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';
import { DOCUMENT_LOCALE, formatDay } from '../domain/dates/rules.js';

/** A sandbox payment's id, from its client secret (`pi_sbx_…_secret_…`). */
const paymentIdOf = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf('_secret_'));

/** Every activity of a renewal that writes (a paid renewal is one: renew, charge, settle, receipt). */
const BOUNDARIES = ['renewSubscription', 'collectSubscriptionOrder'];

/**
 * The processor charges, then the answer is lost once (the worker died between the charge and
 * its settlement, inside one activity): the retry must find the same charge by its key.
 */
function answerLostOnce(processor: PaymentProcessor): PaymentProcessor & { lost: number } {
  const lossy = {
    ...processor,
    lost: 0,
    async chargeOffSession(input: Parameters<PaymentProcessor['chargeOffSession']>[0]) {
      const result = await processor.chargeOffSession(input);
      if (lossy.lost === 0) {
        lossy.lost += 1;
        throw new Error('worker died after the charge');
      }
      return result;
    },
  };
  return lossy;
}

describe('subscriptionWorkflow (time-skipping)', () => {
  const harness = subscriptionWorkflowHarness();
  const { processor, start, handleOf, ordersOf, rowOf, eventTypes, sleepPastPeriodEnd } = harness;

  /** A plan of 15.00 a month (or every `count` intervals) bought now with `card`, its first period paid. */
  const subscribe = (card: string, interval: 'month' | 'year' = 'month', count = 1) =>
    harness.subscribe({ card, interval, count });

  /** A worker, killed once after each renewal step when `crashed` is given. */
  const withWorker = <T>(
    work: (taskQueue: string) => Promise<T>,
    crashed?: string[],
    paymentProcessor: PaymentProcessor = processor(),
  ) =>
    harness.withWorker(work, {
      ...(crashed ? { crashAfter: BOUNDARIES, crashed } : {}),
      processor: paymentProcessor,
    });

  /** A 7.00 plan-change debit waiting for the next order, and the plan set to cancel at period end. */
  async function cancelWithPendingDebit(subscription: { id: string; currentPeriodEnd: Date }) {
    const debit = await harness.db.subscriptionPendingItem.create({
      data: { subscriptionId: subscription.id, label: 'Remaining time on Premium', amount: 700 },
    });
    await harness.db.subscription.update({
      where: { id: subscription.id },
      data: {
        cancelAtPeriodEnd: true,
        canceledAt: new Date(await harness.env.currentTimeMs()),
        endsAt: subscription.currentPeriodEnd,
      },
    });
    return debit;
  }

  it('renews every month on the anchor day, charging the saved card once per renewal', async () => {
    const { subscription, at } = await subscribe('pm_card_visa');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      for (let month = 0; month < 3; month += 1) await harness.env.sleep(31 * DAY_MS);
      // Continued as new after each paid renewal: the running run's history is short.
      const description = await handleOf(subscription.id).describe();
      expect(description.status.name).toBe('RUNNING');
      expect(description.historyLength).toBeLessThan(40);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toMatch(
        /^the end of period 3, until the subscription renews into period 4 at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
      );
    });
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ['subscription_cycle', 'paid', 1500],
      ['subscription_cycle', 'paid', 1500],
      ['subscription_cycle', 'paid', 1500],
    ]);
    expect(orders.map((order) => order.requestKey)).toEqual(
      [1, 2, 3].map((index) => `subscription:${subscription.id}:cycle:${index}`),
    );
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: 'active', currentPeriodIndex: 3, failedAttempts: 0 });
    expect(row.currentPeriodStart).toEqual(addCalendarMonths(at, 3));
    expect(row.currentPeriodEnd).toEqual(addCalendarMonths(at, 4));
    const payments = await harness.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
    });
    expect(payments.map((payment) => payment.idempotencyKey).sort()).toEqual(
      [1, 2, 3].map((index) => `subscription:${subscription.id}:cycle:${index}:attempt:1`),
    );
    expect(payments.every((payment) => payment.offSession && payment.paymentMethod === 'pm_card_visa')).toBe(
      true,
    );
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'order.paid')).toHaveLength(3);
    expect(types.filter((type) => type === 'subscription.updated')).toHaveLength(3);
    // Each renewal began a new period.
    expect(types.filter((type) => type === 'subscription.cycled')).toHaveLength(3);
    // The buyer was welcomed once and got a receipt for each renewal.
    const keys = (
      await harness.db.emailMessage.findMany({
        where: {
          OR: [
            { idempotencyKey: `subscription:${subscription.id}:started` },
            { idempotencyKey: { in: orders.map((order) => `order:${order.id}:receipt`) } },
          ],
        },
        orderBy: { createdAt: 'asc' },
      })
    ).map((email) => email.subject);
    expect(keys).toEqual([
      'Your Pro plan subscription has started',
      'Receipt for Pro plan',
      'Receipt for Pro plan',
      'Receipt for Pro plan',
    ]);
  });

  it('renews every 3 months from the anchor for three years: 12 renewals, one charge each, day of month kept', async () => {
    const { subscription, at } = await subscribe('pm_card_visa', 'month', 3);
    expect(subscription.currentPeriodEnd).toEqual(addCalendarMonths(at, 3));
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      for (let renewal = 1; renewal <= 12; renewal += 1) {
        await sleepPastPeriodEnd(subscription.id, 1);
        expect(await rowOf(subscription.id)).toMatchObject({ currentPeriodIndex: renewal, status: 'active' });
      }
    });
    const row = await rowOf(subscription.id);
    expect(row.currentPeriodStart).toEqual(addCalendarMonths(at, 36));
    expect(row.currentPeriodEnd).toEqual(addCalendarMonths(at, 39));
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.status, order.totalAmount])).toEqual(
      Array.from({ length: 12 }, () => ['paid', 1500]),
    );
    // Each renewal's order is made when its period starts: 3, 6, … 36 months after the anchor.
    orders.forEach((order, index) => {
      const start = addCalendarMonths(at, 3 * (index + 1)).getTime();
      expect(order.createdAt.getTime()).toBeGreaterThanOrEqual(start);
      expect(order.createdAt.getTime()).toBeLessThan(start + DAY_MS);
    });
    const payments = await harness.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
    });
    expect(payments).toHaveLength(12);
  });

  it('past_due_at: set at the first declined try (subscription.past_due sent once), kept through later tries', async () => {
    const { subscription } = await subscribe('pm_card_chargeCustomerFail');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 1);
      const first = await rowOf(subscription.id);
      expect(first).toMatchObject({ status: 'past_due', failedAttempts: 1 });
      expect(first.pastDueAt!.getTime()).toBeGreaterThanOrEqual(first.currentPeriodStart.getTime());
      expect(first.pastDueAt!.getTime()).toBeLessThan(first.currentPeriodStart.getTime() + DAY_MS);
      await harness.env.sleep(3 * DAY_MS);
      const second = await rowOf(subscription.id);
      expect(second).toMatchObject({ status: 'past_due', failedAttempts: 2 });
      expect(second.pastDueAt).toEqual(first.pastDueAt);
    });
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.past_due')).toHaveLength(1);
    const [event] = await harness.db.outboxEvent.findMany({
      where: { organizationId: subscription.organizationId, type: 'subscription.past_due' },
    });
    const { data } = event!.payload as { data: { id: string; status: string; past_due_at: string | null } };
    expect(data).toMatchObject({ id: subscription.id, status: 'past_due' });
    expect(data.past_due_at).not.toBeNull();
  });

  it('dunning: a declined renewal makes it past_due (benefits kept), tries +2, +5, +7, +7 days, then ends unpaid', async () => {
    const { subscription } = await subscribe('pm_card_chargeCustomerFail');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 1);
      const pastDue = await rowOf(subscription.id);
      expect(pastDue).toMatchObject({ status: 'past_due', failedAttempts: 1 });
      await harness.env.sleep(25 * DAY_MS);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: 'unpaid', failedAttempts: 5 });
    expect(row.endedAt).not.toBeNull();
    const attempts = await harness.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
      orderBy: { createdAt: 'asc' },
    });
    expect(attempts.map((payment) => [payment.idempotencyKey.split(':').at(-1), payment.status])).toEqual(
      [1, 2, 3, 4, 5].map((attempt) => [String(attempt), 'failed']),
    );
    // The tries' times, as the workflow's clock saw them: the `subscription.updated` each failure
    // recorded (the first one is the renewal's).
    const updates = await harness.db.outboxEvent.findMany({
      where: { organizationId: subscription.organizationId, type: 'subscription.updated' },
      orderBy: { sequence: 'asc' },
    });
    const times = updates
      .slice(1)
      .map((event) => Date.parse((event.payload as { timestamp: string }).timestamp));
    const gaps = times.slice(1).map((time, index) => Math.round((time - times[index]!) / DAY_MS));
    expect(gaps).toEqual([2, 5, 7, 7]);
    const emails = await harness.db.emailMessage.findMany({
      where: { idempotencyKey: { contains: `subscription:${subscription.id}:order:` } },
      orderBy: { createdAt: 'asc' },
    });
    expect(emails).toHaveLength(5);
    expect(emails[0]!.subject).toBe('Your payment for Pro plan failed');
    expect(emails[0]!.text).toContain(
      'We could not charge $15.00 to your card for Pro plan: Your card was declined.',
    );
    expect(emails[4]!.subject).toBe('Your Pro plan subscription ended: payment failed');
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.revoked')).toHaveLength(1);
    expect(types.filter((type) => type === 'order.paid')).toHaveLength(0);
  });

  it('dunning: a renewal the processor refuses for good is a failed try, asked once, and dunning goes on; the buyer reads plain words', async () => {
    const { subscription } = await subscribe('pm_card_visa');
    let charges = 0;
    const refusing: PaymentProcessor = {
      ...processor(),
      chargeOffSession: async () => {
        charges += 1;
        throw new PaymentProcessorError('resource_missing', "No such PaymentMethod: 'pm_gone'", 'permanent');
      },
    };
    await withWorker(
      async (taskQueue) => {
        await start(taskQueue, subscription.id);
        await sleepPastPeriodEnd(subscription.id, 1);
        expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 1 });
        // The buyer is told, as of a decline; the run then waits for try 2 (no step in flight).
        await eventually(
          () => harness.db.emailMessage.count({ where: { subject: 'Your payment for Pro plan failed' } }),
          (count) => count === 1,
        );
      },
      undefined,
      refusing,
    );
    expect(charges).toBe(1);
    const reason =
      "The payment processor refused the request (resource_missing): No such PaymentMethod: 'pm_gone'";
    // The seller's record of the try, which the payment attempts and the order's timeline show, keeps
    // the processor's words.
    const attempts = await harness.db.orderPaymentAttempt.findMany({
      where: { order: { subscriptionId: subscription.id } },
    });
    expect(attempts).toMatchObject([
      { attempt: 1, status: 'failed', declineCode: 'resource_missing', message: reason, isRefused: true },
    ]);
    const [email] = await harness.db.emailMessage.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:order:` } },
    });
    expect(email!.text).toContain(
      'We could not take your payment of $15.00 for Pro plan because of a problem on our side, not with your card. You have not been charged.',
    );
    // The portal's payment status, which the buyer reads after a plan change billed at once.
    const status = await customerOrderPaymentStatus(harness.db, buyer(subscription), attempts[0]!.orderId);
    const seller = await harness.db.organization.findUniqueOrThrow({
      where: { id: subscription.organizationId },
    });
    expect(status).toEqual({ status: 'failed', error: refusedPaymentNotice(seller.name) });
    for (const technical of ['resource_missing', 'pm_gone', 'refused the request']) {
      expect(email!.text).not.toContain(technical);
      expect(email!.html).not.toContain(technical);
      expect(status.error).not.toContain(technical);
    }
  });

  it('dunning: fail, fail, then a new card is tried at once and the subscription is active again', async () => {
    const { subscription, processorCustomerId } = await subscribe('pm_card_chargeCustomerFail');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 3);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 2 });
      // The buyer saves a new card as their default in the portal: the plan moves to it.
      const { movedSubscriptionIds } = await harness.db.$transaction((tx) =>
        keepPaymentMethod(tx, {
          organizationId: subscription.organizationId,
          customerId: subscription.customerId,
          processor: 'sandbox',
          saved: {
            paymentMethodId: 'pm_card_visa',
            processorCustomerId,
            summary: { brand: 'visa', last4: '4242' },
            expiry: { month: 12, year: 2030 },
          },
          makeDefault: true,
          at: new Date(),
        }),
      );
      expect(movedSubscriptionIds).toEqual([subscription.id]);
      const workflows = temporalSubscriptionWorkflows(harness.env.client, taskQueue);
      await workflows.signalChanged(subscription.id);
      await harness.env.sleep(DAY_MS);
    });
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: 'active', failedAttempts: 0, nextAttemptAt: null });
    const [order] = await ordersOf(subscription.id);
    expect(order).toMatchObject({ status: 'paid' });
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.active')).toHaveLength(2);
    expect(types.filter((type) => type === 'subscription.revoked')).toHaveLength(0);
  });

  it('dunning: cancelling a past_due subscription stops the retries; it ends at the end of its period', async () => {
    const { subscription } = await subscribe('pm_card_chargeCustomerFail');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 1);
      const pastDue = await rowOf(subscription.id);
      expect(pastDue.status).toBe('past_due');
      await harness.db.subscription.update({
        where: { id: subscription.id },
        data: {
          cancelAtPeriodEnd: true,
          canceledAt: new Date(await harness.env.currentTimeMs()),
          endsAt: pastDue.currentPeriodEnd,
        },
      });
      await temporalSubscriptionWorkflows(harness.env.client, taskQueue).signalChanged(subscription.id);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    const attempts = await harness.db.sandboxPayment.count({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
    });
    expect(attempts).toBe(1);
    expect(await rowOf(subscription.id)).toMatchObject({ status: 'canceled' });
    const notices = await harness.db.emailMessage.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:canceled:` } },
    });
    // The end's day on the organization's calendar (UTC unless it chose a zone), in English.
    const { endsAt } = await rowOf(subscription.id);
    expect(notices.map((email) => email.subject)).toEqual([
      `Your Pro plan subscription will end on ${formatDay(endsAt!, { locale: DOCUMENT_LOCALE, style: 'long' })}`,
    ]);
  });

  it('bills pending proration lines with the renewal, never charging below zero: the rest of a credit is carried', async () => {
    const { subscription } = await subscribe('pm_card_visa');
    await harness.db.subscriptionPendingItem.create({
      data: { subscriptionId: subscription.id, label: 'Unused time on Premium', amount: -2000 },
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 1);
    });
    const [order] = await ordersOf(subscription.id);
    expect(order).toMatchObject({ status: 'paid', subtotalAmount: 0, netAmount: 0, totalAmount: 0 });
    expect(order!.items.map((item) => [item.amount, item.proration])).toEqual([
      [1500, false],
      [-2000, true],
      [500, true],
    ]);
    expect(
      await harness.db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
      }),
    ).toBe(0);
    const pending = await harness.db.subscriptionPendingItem.findMany({
      where: { subscriptionId: subscription.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(pending.map((item) => [item.amount, item.orderId])).toEqual([
      [-2000, order!.id],
      [-500, null],
    ]);
  });

  it('ends at period end when set to cancel, collecting the debits still pending in a final order', async () => {
    const { subscription } = await subscribe('pm_card_visa');
    const debit = await cancelWithPendingDebit(subscription);
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 1);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ['subscription_cycle', 'paid', 700],
    ]);
    expect(orders[0]!.items.map((item) => item.label)).toEqual(['Remaining time on Premium']);
    expect(
      await harness.db.subscriptionPendingItem.findUniqueOrThrow({ where: { id: debit.id } }),
    ).toMatchObject({
      orderId: orders[0]!.id,
    });
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: 'canceled', endedAt: subscription.currentPeriodEnd });
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.revoked')).toHaveLength(1);
    const emails = await harness.db.emailMessage.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:canceled:` } },
    });
    expect(emails).toHaveLength(1);
  });

  it('gives up on a final order the card declines, after the retry schedule, and ends', async () => {
    const { subscription } = await subscribe('pm_card_chargeCustomerFail');
    await cancelWithPendingDebit(subscription);
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    const [order] = await ordersOf(subscription.id);
    expect(order).toMatchObject({ status: 'pending', totalAmount: 700 });
    expect(
      await harness.db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
      }),
    ).toBe(5);
    expect(await rowOf(subscription.id)).toMatchObject({
      status: 'canceled',
      failedAttempts: 5,
      nextAttemptAt: null,
    });
  });

  it('makes exactly one order and one charge per renewal when the worker dies after every step', async () => {
    const { subscription } = await subscribe('pm_card_visa');
    const crashed: string[] = [];
    const lossy = answerLostOnce(processor());
    await withWorker(
      async (taskQueue) => {
        await start(taskQueue, subscription.id);
        await sleepPastPeriodEnd(subscription.id, 1);
      },
      crashed,
      lossy,
    );
    // A renewal paid at once takes one activity; collecting (a retry) is the other kind.
    expect(crashed).toEqual(['renewSubscription']);
    expect(lossy.lost).toBe(1);
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => order.status)).toEqual(['paid']);
    expect(
      await harness.db.sandboxPayment.count({
        where: { idempotencyKey: { startsWith: `subscription:${subscription.id}:` } },
      }),
    ).toBe(1);
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'order.created')).toHaveLength(1);
    expect(types.filter((type) => type === 'order.paid')).toHaveLength(1);
    expect(types.filter((type) => type === 'subscription.updated')).toHaveLength(1);
  });

  it('keeps a ten-year subscription’s history short: one run per renewal', async () => {
    const { subscription, at } = await subscribe('pm_card_visa');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      for (let year = 0; year < 10; year += 1) await harness.env.sleep(366 * DAY_MS);
      // On a loaded machine the workflow is still renewing when the clock stops: it is ended only
      // once it has caught up and parked on its timer, since ending it during a local activity
      // leaves the time-skipping server's clock locked and the next test's sleeps run in real time.
      await eventually(
        () => rowOf(subscription.id),
        (row) => row.currentPeriodIndex === 120,
        150_000,
      );
      // The last renewal may still be continuing as new: no query before it has (see `parked`).
      await harness.parked(subscription.id);
    });
    const row = await rowOf(subscription.id);
    expect(row.currentPeriodIndex).toBe(120);
    expect(row.currentPeriodStart).toEqual(addCalendarMonths(at, 120));
    expect(await harness.db.order.count({ where: { subscriptionId: subscription.id, status: 'paid' } })).toBe(
      120,
    );
    const description = await handleOf(subscription.id).describe();
    expect(description.historyLength).toBeLessThan(40);
  }, 300_000);
  /** Customers' payments of the test's subscriptions reach their workflows, as in production. */
  function routedProcessor() {
    let route: ProcessorEventSink = createRecordingSink();
    const sandbox = createSandboxProcessor({
      db: harness.db,
      sink: { deliver: (event) => route.deliver(event) },
    });
    return {
      sandbox,
      sink: { deliver: (event: ProcessorEvent) => route.deliver(event) },
      routeTo(taskQueue: string) {
        route = processorEventRouter({
          checkouts: { signalPayment: async () => undefined },
          refunds: { signalOutcome: async () => undefined },
          subscriptions: temporalSubscriptionWorkflows(harness.env.client, taskQueue),
          disputes: { signalEvent: async () => undefined },
        });
      },
    };
  }

  const buyer = (subscription: { customerId: string; organizationId: string }) => ({
    kind: 'customer_session' as const,
    customerId: subscription.customerId,
    organizationId: subscription.organizationId,
    tokenHash: 'test',
    expiresAt: new Date(Date.now() + 60 * 60_000),
    returnUrl: null,
  });

  const offSessionCharges = (subscriptionId: string) =>
    harness.db.sandboxPayment.count({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` }, offSession: true },
    });

  const emailsAbout = (subscriptionId: string) =>
    harness.db.emailMessage.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:order:` } },
      orderBy: { createdAt: 'asc' },
    });

  it('a renewal the bank wants the buyer to confirm waits for them: later tries only remind; their confirmation pays it', async () => {
    const { subscription } = await subscribe('pm_card_authenticationRequired');
    const routed = routedProcessor();
    await withWorker(
      async (taskQueue) => {
        routed.routeTo(taskQueue);
        await start(taskQueue, subscription.id);
        await sleepPastPeriodEnd(subscription.id, 1);
        expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 1 });
        const [order] = await ordersOf(subscription.id);
        const handle = handleOf(subscription.id);
        expect(await handle.query<string>('waitingFor')).toMatch(
          new RegExp(
            `^the customer to confirm the payment of order ${order!.id} with their bank, until try 2 reminds them without charging the card at \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$`,
          ),
        );
        const details = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
        expect(details.currentDetails).toMatch(
          /^\*\*Waiting\*\* for the customer to confirm the payment of order .+ with their bank, until try 2 reminds them/,
        );
        expect(details.currentDetails).toContain('the email links them to it in the portal');

        // Try 2 (+2 days) counts, and reminds the buyer, without charging the card.
        await harness.env.sleep(2 * DAY_MS);
        expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 2 });
        expect(await offSessionCharges(subscription.id)).toBe(1);
        const tries = await harness.db.orderPaymentAttempt.findMany({
          where: { orderId: order!.id },
          orderBy: { attempt: 'asc' },
        });
        expect(tries.map((each) => [each.attempt, each.declineCode, each.paymentId !== null])).toEqual([
          [1, 'authentication_required', true],
          [2, 'authentication_required', false],
        ]);
        expect(tries.every((each) => each.paymentMethodId === 'pm_card_authenticationRequired')).toBe(true);

        // "Retry now" would only be declined again.
        await expect(
          retryCustomerSubscriptionPayment(
            {
              db: harness.db,
              publicUrl: 'http://tollgate.test',
              tax: noTax,
              workflows: temporalSubscriptionWorkflows(harness.env.client, taskQueue),
            },
            buyer(subscription),
            subscription.id,
          ),
        ).rejects.toMatchObject({ errorName: 'Conflict' });

        // The buyer fails the bank's page once: nothing changes but the payment's status.
        // The payment's one step, called as `customer-payment:<id>` would: waiting for a
        // workflow's answer here would let the server skip to the schedule's next try meanwhile.
        const ctx = {
          db: harness.db,
          workflows: {
            payAsCustomer: (input: CustomerPaymentInput) =>
              payOrderAsCustomer({ db: harness.db, processor: routed.sandbox }, input),
          },
        };
        const body = {
          confirmation_token_id: 'pm_card_authenticationRequired',
          payment_processor: 'stripe' as const,
        };
        const first = await confirmCustomerOrderPayment(ctx, buyer(subscription), order!.id, body);
        expect(first).toMatchObject({ status: 'requires_action', error: null });
        await authenticateSandboxPayment(
          { db: harness.db, sink: routed.sink },
          {
            paymentId: paymentIdOf(first.client_secret!),
            clientSecret: first.client_secret!,
            outcome: 'fail',
          },
        );
        // (The portal's payment-status compares it with the tries by date, which a time-skipping
        // server's workflows see days ahead of the API's clock: see the API's tests for it.)
        const [failedPayment] = await eventually(
          () => harness.db.orderCustomerPayment.findMany({ where: { orderId: order!.id } }),
          (payments) => payments[0]?.status === 'failed',
        );
        expect(failedPayment).toMatchObject({
          declineCode: 'payment_intent_authentication_failure',
          message:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        });
        expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 2 });

        const second = await confirmCustomerOrderPayment(ctx, buyer(subscription), order!.id, body);
        expect(second.status).toBe('requires_action');
        await authenticateSandboxPayment(
          { db: harness.db, sink: routed.sink },
          {
            paymentId: paymentIdOf(second.client_secret!),
            clientSecret: second.client_secret!,
            outcome: 'complete',
          },
        );
        await eventually(
          () => rowOf(subscription.id),
          (row) => row.status === 'active',
        );
        expect(await customerOrderPaymentStatus(harness.db, buyer(subscription), order!.id)).toEqual({
          status: 'succeeded',
          error: null,
        });
        // The receipt is the settlement's last step: the run is not ended while it is under way.
        const receipt = await eventually(
          () =>
            harness.db.emailMessage.findUnique({ where: { idempotencyKey: `order:${order!.id}:receipt` } }),
          (email) => email !== null,
        );
        expect(receipt!.subject).toBe('Receipt for Pro plan');
        // Back to waiting for the period's end before the worker stops: a local activity cut off
        // mid-way panics the worker's core and leaves the time-skipping server's clock locked.
        // Not by polling the query: the paid renewal continues as new, and a query during that
        // task locks the clock for good (see `parked`).
        expect(await harness.parked(subscription.id)).toMatch(/^the end of period/);
      },
      undefined,
      routed.sandbox,
    );
    expect(await rowOf(subscription.id)).toMatchObject({
      status: 'active',
      failedAttempts: 0,
      nextAttemptAt: null,
    });
    const [order] = await ordersOf(subscription.id);
    expect(order).toMatchObject({ status: 'paid', paymentId: expect.stringMatching(/^pi_sbx_/) });
    const paidTry = await harness.db.orderPaymentAttempt.findUniqueOrThrow({
      where: { orderId_attempt: { orderId: order!.id, attempt: 3 } },
    });
    expect(paidTry).toMatchObject({ status: 'succeeded', paymentId: order!.paymentId });
    expect(await offSessionCharges(subscription.id)).toBe(1);
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.active')).toHaveLength(2);
    expect(types.filter((type) => type === 'order.paid')).toHaveLength(1);
    const emails = await emailsAbout(subscription.id);
    expect(emails.map((email) => email.subject)).toEqual([
      'Confirm your payment for Pro plan',
      'Confirm your payment for Pro plan',
    ]);
    expect(emails[0]!.text).toContain('Your bank asks you to confirm the payment of $15.00 for Pro plan');
    expect(emails[0]!.text).toMatch(/\/portal\/[a-z0-9-]+\/orders\?customer_session_token=tollgate_cst_/);
    expect(emails[1]!.text).toContain('still waits for you to confirm it with your bank');
  });

  it('a buyer who never confirms: the card is charged once, reminded at each try, and the plan ends unpaid after the last', async () => {
    const { subscription } = await subscribe('pm_card_authenticationRequired');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await sleepPastPeriodEnd(subscription.id, 22);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    expect(await rowOf(subscription.id)).toMatchObject({ status: 'unpaid', failedAttempts: 5 });
    expect(await offSessionCharges(subscription.id)).toBe(1);
    const emails = await emailsAbout(subscription.id);
    expect(emails.map((email) => email.subject)).toEqual([
      ...Array(4).fill('Confirm your payment for Pro plan'),
      'Your Pro plan subscription ended: payment not confirmed',
    ]);
  });

  it('replays a history recorded before customers could confirm payments (3-D Secure renewal, tries, a new card)', async () => {
    const json = JSON.parse(
      readFileSync(
        new URL('./__fixtures__/subscription-before-buyer-authentication.json', import.meta.url),
        'utf8',
      ),
    ) as object;
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { codePath: requireTestEnv('workflowBundle') } },
        proto.temporal.api.history.v1.History.fromObject(json),
      ),
    ).resolves.toBeUndefined();
  });
});
