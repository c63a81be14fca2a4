// Plan changes at the next period on the time-skipping server: the renewal applies the pending
// update in its one order (the new plan's price), or renews the old plan once it is cleared.
import { describe, expect, it } from '@jest/globals';
import { changeSubscriptionProduct } from '../domain/subscriptions/changes.js';
import { clearPendingUpdate } from '../domain/subscriptions/pending-updates.js';
import { findSubscription } from '../domain/subscriptions/repository.js';
import { createOrganization } from '../test/factories.js';
import { DAY_MS, subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';

describe('pending plan changes (time-skipping)', () => {
  const harness = subscriptionWorkflowHarness();
  const { withWorker, start, rowOf, ordersOf, changeContext, sleepPastPeriodEnd } = harness;

  /** A 15.00 monthly Pro plan bought now with a card, and a 25.00 monthly Premium plan to move to. */
  async function subscribe() {
    const organization = await createOrganization(harness.db);
    const pro = await harness.plan(organization.id, { name: 'Pro plan', amount: 1500 });
    const premium = await harness.plan(organization.id, { name: 'Premium plan', amount: 2500 });
    const { subscription } = await harness.subscribe({ product: pro });
    return { subscription, pro, premium };
  }

  const updatedEvents = async (organizationId: string) =>
    (
      await harness.db.outboxEvent.findMany({
        where: { organizationId, type: 'subscription.updated' },
        orderBy: { sequence: 'asc' },
      })
    ).map(
      (event) =>
        (event.payload as { data: { product_id: string; pending_update: { product_id: string } | null } })
          .data,
    );

  it('applies a next-period plan change at the renewal, in its one order at the new price, once under crashes', async () => {
    const { subscription, pro, premium } = await subscribe();
    const crashed: string[] = [];
    await withWorker(
      async (taskQueue) => {
        await start(taskQueue, subscription.id);
        const view = await changeSubscriptionProduct(
          changeContext(taskQueue),
          (await findSubscription(harness.db, subscription.id))!,
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
      },
      { crashAfter: ['renewSubscription'], crashed },
    );
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
    const history = await harness.db.subscriptionProduct.findMany({
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
      await start(taskQueue, subscription.id);
      await changeSubscriptionProduct(
        changeContext(taskQueue),
        (await findSubscription(harness.db, subscription.id))!,
        {
          product_id: premium.product.id,
          proration_behavior: 'next_period',
        },
      );
      await harness.env.sleep(10 * DAY_MS);
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
