// Plan changes at the next period on the time-skipping server: the renewal applies the pending
// update in its one order (the new plan's price), or renews the old plan once it is cleared.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import pino from 'pino';
import { createSubscriptionActivities } from '../activities/subscriptions.js';
import { changeSubscriptionProduct } from '../domain/subscriptions/changes.js';
import { clearPendingUpdate } from '../domain/subscriptions/pending-updates.js';
import { findSubscription } from '../domain/subscriptions/repository.js';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import { startSubscription } from '../domain/subscriptions/service.js';
import { noTax } from '../domain/tax/rules.js';
import { createSandboxProcessor } from '../integrations/sandbox/processor.js';
import { createMailer } from '../integrations/smtp/mailer.js';
import { temporalSubscriptionWorkflows } from '../temporal/subscriptions.js';
import { crashOnceAfterEachStep } from '../test/crash.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { requireTestEnv } from '../test/env.js';
import { createOrganization } from '../test/factories.js';
import { createRecordingSink } from '../test/stripe-factories.js';
import { createTimeSkippingEnvironment } from '../test/time-skipping.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PUBLIC_URL = 'http://tollgate.test';

describe('pending plan changes (time-skipping)', () => {
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

  async function monthlyProduct(organizationId: string, name: string, amount: number) {
    const product = await database.db.product.create({
      data: { organizationId, name, recurringInterval: 'month' },
    });
    const price = await database.db.productPrice.create({
      data: {
        organizationId,
        productId: product.id,
        amountType: 'fixed',
        type: 'recurring',
        recurringInterval: 'month',
        priceCurrency: 'usd',
        priceAmount: amount,
      },
    });
    return { product, price };
  }

  /** A 15.00 monthly Pro plan bought now with a card, and a 25.00 monthly Premium plan to move to. */
  async function subscribe() {
    const db = database.db;
    const organization = await createOrganization(db);
    const pro = await monthlyProduct(organization.id, 'Pro plan', 1500);
    const premium = await monthlyProduct(organization.id, 'Premium plan', 2500);
    const customer = await db.customer.create({
      data: { organizationId: organization.id, email: `buyer-${pro.product.id}@example.test`, name: 'Ada' },
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
          productId: pro.product.id,
          checkoutId: null,
          recurringInterval: 'month',
          currency: 'usd',
          prices: [{ productPriceId: pro.price.id, amount: 1500 }],
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
        PUBLIC_URL,
      ),
    );
    return { subscription: row, pro, premium };
  }

  const started: string[] = [];
  const handleOf = (subscriptionId: string) =>
    env.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));

  async function withWorker<T>(work: (taskQueue: string) => Promise<T>, crashed?: string[]) {
    const taskQueue = `subscriptions-${crypto.randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: requireTestEnv('workflowBundle') },
      ...(crashed
        ? { interceptors: { activity: [crashOnceAfterEachStep(['renewSubscription'], crashed)] } }
        : {}),
      activities: createSubscriptionActivities({
        db: database.db,
        publicUrl: PUBLIC_URL,
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
          const handle = handleOf(id);
          if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test over');
        }
      }
    });
  }

  const changeContext = (taskQueue: string) => ({
    db: database.db,
    publicUrl: PUBLIC_URL,
    tax: noTax,
    workflows: {
      signalChanged: (id: string) => temporalSubscriptionWorkflows(env.client, taskQueue).signalChanged(id),
    },
  });
  const rowOf = (id: string) => database.db.subscription.findUniqueOrThrow({ where: { id } });
  const ordersOf = (subscriptionId: string) =>
    database.db.order.findMany({
      where: { subscriptionId },
      orderBy: { createdAt: 'asc' },
      include: { items: true },
    });
  const updatedEvents = async (organizationId: string) =>
    (
      await database.db.outboxEvent.findMany({
        where: { organizationId, type: 'subscription.updated' },
        orderBy: { sequence: 'asc' },
      })
    ).map(
      (event) =>
        (event.payload as { data: { product_id: string; pending_update: { product_id: string } | null } })
          .data,
    );

  async function sleepPastPeriodEnd(subscriptionId: string, days: number) {
    const { currentPeriodEnd } = await rowOf(subscriptionId);
    await env.sleep(currentPeriodEnd.getTime() - (await env.currentTimeMs()) + days * DAY_MS);
  }

  it('applies a next-period plan change at the renewal, in its one order at the new price, once under crashes', async () => {
    const { subscription, pro, premium } = await subscribe();
    const crashed: string[] = [];
    await withWorker(async (taskQueue) => {
      started.push(subscription.id);
      await temporalSubscriptionWorkflows(env.client, taskQueue).start(subscription.id);
      const view = await changeSubscriptionProduct(
        changeContext(taskQueue),
        (await findSubscription(database.db, subscription.id))!,
        { product_id: premium.product.id, proration_behavior: 'next_period' },
      );
      // Nothing changes or is billed before the period's end.
      expect(view.product_id).toBe(pro.product.id);
      expect(view.pending_update).toMatchObject({
        product_id: premium.product.id,
        applies_at: subscription.currentPeriodEnd.toISOString(),
        seats: null,
      });
      expect(await ordersOf(subscription.id)).toEqual([]);
      await sleepPastPeriodEnd(subscription.id, 1);
    }, crashed);
    expect(crashed).toContain('renewSubscription');
    const orders = await ordersOf(subscription.id);
    expect(
      orders.map((order) => [order.billingReason, order.productId, order.status, order.totalAmount]),
    ).toEqual([['subscription_cycle', premium.product.id, 'paid', 2500]]);
    expect(orders[0]!.items.map((item) => [item.label, item.amount, item.proration])).toEqual([
      ['Premium plan', 2500, false],
    ]);
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({
      productId: premium.product.id,
      amount: 2500,
      currentPeriodIndex: 1,
      pendingUpdateId: null,
      pendingProductId: null,
    });
    const history = await database.db.subscriptionProduct.findMany({
      where: { subscriptionId: subscription.id },
      orderBy: { since: 'asc' },
    });
    expect(history.at(-1)).toMatchObject({
      productName: 'Premium plan',
      since: subscription.currentPeriodEnd,
    });
    // subscription.updated: set, applied (the plan switched, nothing pending), renewed.
    const updates = await updatedEvents(subscription.organizationId);
    expect(updates.map((data) => [data.product_id, data.pending_update?.product_id ?? null])).toEqual([
      [pro.product.id, premium.product.id],
      [premium.product.id, null],
      [premium.product.id, null],
    ]);
  });

  it('renews the old plan when the pending change is cleared before the period ends', async () => {
    const { subscription, pro, premium } = await subscribe();
    await withWorker(async (taskQueue) => {
      started.push(subscription.id);
      await temporalSubscriptionWorkflows(env.client, taskQueue).start(subscription.id);
      await changeSubscriptionProduct(
        changeContext(taskQueue),
        (await findSubscription(database.db, subscription.id))!,
        {
          product_id: premium.product.id,
          proration_behavior: 'next_period',
        },
      );
      await env.sleep(10 * DAY_MS);
      const cleared = await clearPendingUpdate(changeContext(taskQueue), subscription.id);
      expect(cleared.pending_update).toBeNull();
      // A second clear has nothing to clear: a 422 at the field, as Polar answers.
      await expect(clearPendingUpdate(changeContext(taskQueue), subscription.id)).rejects.toMatchObject({
        issues: [expect.objectContaining({ loc: ['body', 'pending_update'] })],
      });
      await sleepPastPeriodEnd(subscription.id, 1);
    });
    const orders = await ordersOf(subscription.id);
    expect(orders.map((order) => [order.billingReason, order.productId, order.totalAmount])).toEqual([
      ['subscription_cycle', pro.product.id, 1500],
    ]);
    expect(await rowOf(subscription.id)).toMatchObject({ productId: pro.product.id, pendingUpdateId: null });
    const updates = await updatedEvents(subscription.organizationId);
    expect(updates.map((data) => data.pending_update?.product_id ?? null)).toEqual([
      premium.product.id,
      null,
      null,
    ]);
  });
});
