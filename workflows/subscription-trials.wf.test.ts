// The free trial's paths through the subscription workflow on the time-skipping server: converted
// at its end (the first period charged), canceled during it (ended at its end, nothing charged),
// and its first charge declined (dunning, as a renewal's).
import { describe, expect, it } from '@jest/globals';
import { addCalendarMonths } from '../domain/subscriptions/rules.js';
import { DAY_MS, subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';

const TRIAL_DAYS = 14;

describe('subscriptionWorkflow: free trials (time-skipping)', () => {
  const harness = subscriptionWorkflowHarness('trials');
  const { withWorker, start, handleOf, rowOf, ordersOf, chargesOf, eventTypes } = harness;

  /** A monthly plan of 20.00 started now with a 14-day trial, its card saved (`card`). */
  async function subscribeWithTrial(card: string) {
    const bought = await harness.subscribe({ card, amount: 2000, trialDays: TRIAL_DAYS });
    return { ...bought, trialEnd: bought.trialEnd! };
  }

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
      await harness.env.sleep((TRIAL_DAYS - 1) * DAY_MS);
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'trialing', currentPeriodIndex: 0 });
      expect(await chargesOf(subscription.id)).toHaveLength(0);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toMatch(
        /^the end of the free trial, until the trial ends and period 1, its first paid one, is charged at /,
      );
      await harness.env.sleep(2 * DAY_MS);
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
    await harness.db.subscription.update({
      where: { id: subscription.id },
      data: {
        cancelAtPeriodEnd: true,
        canceledAt: new Date(await harness.env.currentTimeMs()),
        endsAt: trialEnd,
      },
    });
    await withWorker(async (taskQueue) => {
      await start(taskQueue, subscription.id);
      await harness.env.sleep((TRIAL_DAYS + 1) * DAY_MS);
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
      await harness.env.sleep((TRIAL_DAYS + 1) * DAY_MS);
      const pastDue = await rowOf(subscription.id);
      expect(pastDue).toMatchObject({ status: 'past_due', failedAttempts: 1, currentPeriodIndex: 1 });
      // The schedule's first retry is 2 days after the failed try.
      const retryAtMs = trialEnd.getTime() + 2 * DAY_MS;
      expect(Math.abs(pastDue.nextAttemptAt!.getTime() - retryAtMs)).toBeLessThan(60_000);
      await harness.env.sleep(2 * DAY_MS);
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
    const failed = await harness.db.emailMessage.findMany({
      where: { idempotencyKey: { contains: `subscription:${subscription.id}:order:` } },
    });
    expect(failed).toHaveLength(2);
  });
});
