// The free trial's paths through the subscription workflow on the time-skipping server: converted
// at its end (the first period charged), canceled during it (ended at its end, nothing charged),
// and its first charge declined (dunning, as a renewal's).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { addCalendarMonths, subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const TRIAL_DAYS = 14;

describe('subscriptionWorkflow: free trials (time-skipping)', () => {
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

  const processor = () => createSandboxProcessor({ db: database.db, sink: createRecordingSink() });

  /** A monthly plan of 20.00 started now with a 14-day trial, its card saved (`card`). */
  async function subscribeWithTrial(card: string) {
    const db = database.db;
    const organization = await createOrganization(db);
    const product = await db.product.create({
      data: {
        organizationId: organization.id,
        name: 'Pro plan',
        recurringInterval: 'month',
        trialInterval: 'day',
        trialIntervalCount: TRIAL_DAYS,
      },
    });
    const price = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: 'month',
        priceCurrency: 'usd',
        priceAmount: 2000,
      },
    });
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: `buyer-${product.id}@example.test`, name: 'Ada' },
    });
    const { processorCustomerId } = await processor().ensureCustomer({
      idempotencyKey: `test:${customer.id}`,
      email: customer.email,
      name: customer.name,
      customerId: customer.id,
    });
    const at = new Date(await env.currentTimeMs());
    const trialEnd = new Date(at.getTime() + TRIAL_DAYS * DAY_MS);
    const row = await db.$transaction((tx) =>
      startSubscription(
        tx,
        {
          organizationId: organization.id,
          customerId: customer.id,
          productId: product.id,
          checkoutId: null,
          recurringInterval: 'month',
          currency: 'usd',
          prices: [{ productPriceId: price.id, amount: 2000 }],
          amount: 2000,
          discountId: null,
          metadata: {},
          customFieldData: {},
          paymentProcessor: 'sandbox',
          savedPaymentMethod: { paymentMethodId: card, processorCustomerId, summary: null, expiry: null },
          at,
          trialEnd,
        },
        'http://tollgate.test',
      ),
    );
    return { subscription: row, at, trialEnd };
  }

  const started: string[] = [];
  async function withWorker<T>(work: (taskQueue: string) => Promise<T>) {
    const taskQueue = `trials-${crypto.randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      activities: createSubscriptionActivities({
        db: database.db,
        publicUrl: 'http://tollgate.test',
        mailer: createMailer({
          db: database.db,
          from: 'shop@example.test',
          logger: pino({ level: 'silent' }),
        }),
        processor: processor(),
        tax: noTax,
        workflows: { subscriptions: temporalSubscriptionWorkflows(env.client, taskQueue) },
      }),
    });
    return worker.runUntil(async () => {
      try {
        return await work(taskQueue);
      } finally {
        for (const id of started.splice(0)) {
          const handle = env.client.workflow.getHandle(subscriptionWorkflowId(id));
          if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }
  const start = (taskQueue: string, subscriptionId: string) => {
    started.push(subscriptionId);
    return temporalSubscriptionWorkflows(env.client, taskQueue).start(subscriptionId);
  };
  const handleOf = (subscriptionId: string) =>
    env.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
  const rowOf = (subscriptionId: string) =>
    database.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
  const ordersOf = (subscriptionId: string) =>
    database.db.order.findMany({ where: { subscriptionId }, orderBy: { createdAt: 'asc' } });
  const chargesOf = (subscriptionId: string) =>
    database.db.sandboxPayment.findMany({
      where: { idempotencyKey: { startsWith: `subscription:${subscriptionId}:` } },
      orderBy: { createdAt: 'asc' },
    });
  const eventTypes = async (organizationId: string) =>
    (await database.db.outboxEvent.findMany({ where: { organizationId }, orderBy: { sequence: 'asc' } })).map(
      (event) => event.type,
    );

  it('starts trialing with nothing charged, and at the trial end charges the first month and becomes active', async () => {
    const { subscription, at, trialEnd } = await subscribeWithTrial('pm_card_visa');
    expect(subscription).toMatchObject({
      status: 'trialing',
      trialStart: at,
      trialEnd,
      currentPeriodEnd: trialEnd,
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await env.sleep((TRIAL_DAYS - 1) * DAY_MS);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'trialing', currentPeriodIndex: 0 });
      expect(await chargesOf(subscription.id)).toHaveLength(0);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toMatch(
        /^the end of the free trial, until the trial ends and period 1, its first paid one, is charged at /,
      );
      await env.sleep(2 * DAY_MS);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'active', currentPeriodIndex: 1 });
    });
    const row = await rowOf(subscription.id);
    // The first paid period starts when the trial ends; later ones keep that day of the month.
    expect(row.currentPeriodStart).toEqual(trialEnd);
    expect(row.currentPeriodEnd).toEqual(addCalendarMonths(trialEnd, 1));
    expect(row.trialEnd).toEqual(trialEnd);
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ['subscription_cycle', 'paid', 2000],
    ]);
    // Charged when the trial's timer fired: at its end (give or take the timer's granularity).
    expect(Math.abs(orders[0]!.createdAt.getTime() - trialEnd.getTime())).toBeLessThan(60_000);
    const charges = await chargesOf(subscription.id);
    expect(charges.map((charge) => [charge.idempotencyKey, charge.status, charge.amount])).toEqual([
      [`subscription:${subscription.id}:cycle:1:attempt:1`, 'succeeded', 2000],
    ]);
    // trialing → active stays in Polar's active group: `.updated` and `.cycled`, no second `.active`.
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.active')).toHaveLength(1);
    expect(types.filter((type) => type === 'subscription.cycled')).toHaveLength(1);
    expect(types).toContain('subscription.updated');
  });

  it('canceled during the trial: ends at the trial end with nothing charged', async () => {
    const { subscription, trialEnd } = await subscribeWithTrial('pm_card_visa');
    await database.db.subscription.update({
      where: { id: subscription.id },
      data: { cancelAtPeriodEnd: true, canceledAt: new Date(await env.currentTimeMs()), endsAt: trialEnd },
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await env.sleep((TRIAL_DAYS + 1) * DAY_MS);
      expect(await handleOf(subscription.id).result()).toBe('ended');
    });
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: 'canceled', endedAt: trialEnd });
    expect(await ordersOf(subscription.id)).toHaveLength(0);
    expect(await chargesOf(subscription.id)).toHaveLength(0);
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.revoked')).toHaveLength(1);
  });

  it('a declined first charge at the trial end goes to dunning as a renewal does (past_due, tried again)', async () => {
    const { subscription, trialEnd } = await subscribeWithTrial('pm_card_chargeCustomerFail');
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await env.sleep((TRIAL_DAYS + 1) * DAY_MS);
      const pastDue = await rowOf(subscription.id);
      expect(pastDue).toMatchObject({ status: 'past_due', failedAttempts: 1, currentPeriodIndex: 1 });
      // The schedule's first retry is 2 days after the failed try.
      const retryAtMs = trialEnd.getTime() + 2 * DAY_MS;
      expect(Math.abs(pastDue.nextAttemptAt!.getTime() - retryAtMs)).toBeLessThan(60_000);
      await env.sleep(2 * DAY_MS);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'past_due', failedAttempts: 2 });
    });
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ['subscription_cycle', 'pending', 2000],
    ]);
    const charges = await chargesOf(subscription.id);
    expect(charges.map((charge) => [charge.idempotencyKey.split(':').at(-1), charge.status])).toEqual([
      ['1', 'failed'],
      ['2', 'failed'],
    ]);
    const failed = await database.db.emailMessage.findMany({
      where: { idempotencyKey: { contains: `subscription:${subscription.id}:order:` } },
    });
    expect(failed).toHaveLength(2);
  });
});
