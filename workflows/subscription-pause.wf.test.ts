// Pause and resume on the time-skipping server (docs/subscriptions.md, "Pause and resume"): a plan
// set to pause goes `paused` at its period's end with no order, is charged nothing while paused,
// and resumes at `resumes_at` or by hand with a new period from the resume instant, charged at once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { cancelScheduledPause, pauseAtPeriodEnd, resumeNow } from '../domain/subscriptions/pausing.js';
import { addCalendarMonths, subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { subscriptionInclude } from '../domain/subscriptions/repository.js';
import { applySubscriptionChange, startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { crashOnceAfterEachStep } from '../test/crash.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { eventually } from '../test/eventually.js';
import { createOrganization } from '../test/factories.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('subscriptionWorkflow: pause and resume (time-skipping)', () => {
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
  const workflowsOn = (taskQueue: string) => temporalSubscriptionWorkflows(env.client, taskQueue);

  /** A monthly plan of 15.00 bought now (the test server's clock), its first period paid. */
  async function subscribe() {
    const db = database.db;
    const organization = await createOrganization(db);
    const product = await db.product.create({
      data: { organizationId: organization.id, name: 'Pro plan', recurringInterval: 'month' },
    });
    const price = await db.productPrice.create({
      data: {
        organizationId: organization.id,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: 'month',
        priceCurrency: 'usd',
        priceAmount: 1500,
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
          prices: [{ productPriceId: price.id, amount: 1500 }],
          amount: 1500,
          discountId: null,
          metadata: {},
          customFieldData: {},
          paymentProcessor: 'sandbox',
          savedPaymentMethod: {
            paymentMethodId: 'pm_card_visa',
            processorCustomerId,
            summary: null,
            expiry: null,
          },
          at,
        },
        'http://tollgate.test',
      ),
    );
    return { subscription: row, at };
  }

  const started: string[] = [];
  async function withWorker<T>(work: (taskQueue: string) => Promise<T>, crashed?: string[]) {
    const taskQueue = `pause-${crypto.randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      ...(crashed
        ? {
            interceptors: {
              activity: [crashOnceAfterEachStep(['runPauseStep', 'renewSubscription'], crashed)],
            },
          }
        : {}),
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
        workflows: { subscriptions: workflowsOn(taskQueue) },
      }),
    });
    return worker.runUntil(async () => {
      try {
        return await work(taskQueue);
      } finally {
        for (const id of started.splice(0)) {
          const handle = handleOf(id);
          if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }

  const start = (taskQueue: string, subscriptionId: string) => {
    started.push(subscriptionId);
    return workflowsOn(taskQueue).start(subscriptionId);
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
  const changeContext = (taskQueue: string) => ({
    db: database.db,
    publicUrl: 'http://tollgate.test',
    tax: noTax,
    workflows: workflowsOn(taskQueue),
  });

  it('pauses at the period end with no order, charges nothing while paused, and resumes at resumes_at with a new period charged then', async () => {
    const { subscription, at } = await subscribe();
    const periodEnd = addCalendarMonths(at, 1);
    const resumesAt = new Date(periodEnd.getTime() + 45 * DAY_MS);
    const crashed: string[] = [];
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      const set = await applySubscriptionChange(
        changeContext(taskQueue),
        subscription.id,
        pauseAtPeriodEnd(resumesAt),
      );
      expect(set).toMatchObject({
        status: 'active',
        pause_at_period_end: true,
        resumes_at: resumesAt.toISOString(),
      });
      const waiting = await eventually(
        () => handleOf(subscription.id).query<string>('waitingFor'),
        (words) => words.includes('pauses'),
      );
      expect(waiting).toMatch(
        /^the end of period 0, when the subscription pauses, until the subscription pauses \(no renewal, nothing charged\) at /,
      );

      // A day past the period's end: paused as of that end, and nothing billed.
      await env.sleep(periodEnd.getTime() - (await env.currentTimeMs()) + DAY_MS);
      const paused = await rowOf(subscription.id);
      expect(paused).toMatchObject({ status: 'paused', pauseAtPeriodEnd: false, currentPeriodIndex: 0 });
      expect(paused.pausedAt).toEqual(periodEnd);
      expect(paused.resumesAt).toEqual(resumesAt);
      expect(await ordersOf(subscription.id)).toEqual([]);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toBe(
        `the paused subscription to resume, until the subscription resumes: a new period starts and is charged at ${resumesAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
      );

      // Past the month it would have renewed in: still nothing charged.
      await env.sleep(resumesAt.getTime() - (await env.currentTimeMs()) - DAY_MS);
      expect(await chargesOf(subscription.id)).toEqual([]);
      expect((await rowOf(subscription.id)).status).toBe('paused');

      // Resumed at resumes_at: the anchor moves there, the new period is charged at once.
      await env.sleep(2 * DAY_MS);
    }, crashed);
    expect(crashed).toEqual(['runPauseStep', 'renewSubscription']);
    const resumed = await rowOf(subscription.id);
    expect(resumed).toMatchObject({
      status: 'active',
      currentPeriodIndex: 1,
      pausedAt: null,
      resumesAt: null,
    });
    expect(resumed.billingAnchor).toEqual(resumesAt);
    expect(resumed.currentPeriodStart).toEqual(resumesAt);
    expect(resumed.currentPeriodEnd).toEqual(addCalendarMonths(resumesAt, 1));
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.status, order.totalAmount])).toEqual([
      ['subscription_cycle', 'paid', 1500],
    ]);
    // Made once the workflow woke at resumes_at (the time-skipping server's clock runs on a little).
    expect(orders[0]!.createdAt.getTime() - resumesAt.getTime()).toBeGreaterThanOrEqual(0);
    expect(orders[0]!.createdAt.getTime() - resumesAt.getTime()).toBeLessThan(DAY_MS);
    expect((await chargesOf(subscription.id)).map((charge) => charge.idempotencyKey)).toEqual([
      `subscription:${subscription.id}:cycle:1:attempt:1`,
    ]);
    const types = await eventTypes(subscription.organizationId);
    expect(types.filter((type) => type === 'subscription.paused')).toHaveLength(1);
    expect(types.filter((type) => type === 'subscription.resumed')).toHaveLength(1);
    // Pausing is neither an end nor a new activation.
    expect(types).not.toContain('subscription.revoked');
    expect(types.filter((type) => type === 'subscription.active')).toHaveLength(1);
    expect(types.indexOf('subscription.paused')).toBeLessThan(types.indexOf('subscription.resumed'));
  });

  it('stays paused without resumes_at until resumed by hand, then renews from the resume instant at once', async () => {
    const { subscription, at } = await subscribe();
    const periodEnd = addCalendarMonths(at, 1);
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await applySubscriptionChange(changeContext(taskQueue), subscription.id, pauseAtPeriodEnd(null));
      await env.sleep(periodEnd.getTime() - (await env.currentTimeMs()) + 90 * DAY_MS);
      expect((await rowOf(subscription.id)).status).toBe('paused');
      expect(await chargesOf(subscription.id)).toEqual([]);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toMatch(
        /^the seller or the customer to resume the paused subscription, since .*, with no deadline$/,
      );
      expect((await handleOf(subscription.id).describe()).status.name).toBe('RUNNING');

      // Resumed by hand at the server's time (the API dates a change with the wall clock, which the
      // time-skipping server has left behind): the change `resumeNow` makes, then the signal.
      const resumedAt = new Date(await env.currentTimeMs());
      const paused = await database.db.subscription.findUniqueOrThrow({
        where: { id: subscription.id },
        include: subscriptionInclude,
      });
      await database.db.subscription.update({
        where: { id: subscription.id },
        data: resumeNow(paused, resumedAt),
      });
      await workflowsOn(taskQueue).signalChanged(subscription.id);
      await eventually(
        () => rowOf(subscription.id),
        (row) => row.currentPeriodIndex === 1,
      );
      const row = await rowOf(subscription.id);
      expect(row.billingAnchor).toEqual(resumedAt);
      expect(row.currentPeriodStart).toEqual(row.billingAnchor);
      expect(row.currentPeriodEnd).toEqual(addCalendarMonths(row.billingAnchor, 1));
      const orders = await ordersOf(subscription.id);
      expect(orders.map((order) => [order.status, order.totalAmount])).toEqual([['paid', 1500]]);

      // The next renewal is a month after the resume, not on the old anchor day.
      await env.sleep(row.currentPeriodEnd.getTime() - (await env.currentTimeMs()) + DAY_MS);
      const renewals = await ordersOf(subscription.id);
      expect(renewals).toHaveLength(2);
      expect(await rowOf(subscription.id)).toMatchObject({
        currentPeriodIndex: 2,
        currentPeriodStart: row.currentPeriodEnd,
        currentPeriodEnd: addCalendarMonths(row.billingAnchor, 2),
      });
    });
  });

  it('a plan set to pause and then un-set renews as before', async () => {
    const { subscription, at } = await subscribe();
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      const ctx = changeContext(taskQueue);
      await applySubscriptionChange(ctx, subscription.id, pauseAtPeriodEnd(null));
      const unset = await applySubscriptionChange(ctx, subscription.id, cancelScheduledPause);
      expect(unset).toMatchObject({ pause_at_period_end: false, resumes_at: null });
      await env.sleep(addCalendarMonths(at, 1).getTime() - (await env.currentTimeMs()) + DAY_MS);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'active', currentPeriodIndex: 1 });
      expect((await ordersOf(subscription.id)).map((order) => order.status)).toEqual(['paid']);
    });
  });
});
