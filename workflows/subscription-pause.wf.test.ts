// Pause and resume on the time-skipping server (docs/subscriptions.md, "Pause and resume"): a plan
// set to pause goes `paused` at its period's end with no order, is charged nothing while paused,
// and resumes at `resumes_at` or by hand with a new period from the resume instant, charged at once.
import { describe, expect, it } from '@jest/globals';
import { cancelScheduledPause, pauseAtPeriodEnd, resumeNow } from '../domain/subscriptions/pausing.js';
import { addCalendarMonths } from '../domain/subscriptions/rules.js';
import { subscriptionInclude } from '../domain/subscriptions/repository.js';
import { applySubscriptionChange } from '../domain/subscriptions/service.js';
import { eventually } from '../test/eventually.js';
import { DAY_MS, subscriptionWorkflowHarness } from '../test/subscription-workflow-harness.js';

describe('subscriptionWorkflow: pause and resume (time-skipping)', () => {
  const harness = subscriptionWorkflowHarness('pause');
  const { subscribe, withWorker, start, handleOf, rowOf, ordersOf, chargesOf } = harness;
  const { eventTypes, changeContext, workflowsOn } = harness;

  it('pauses at the period end with no order, charges nothing while paused, and resumes at resumes_at with a new period charged then', async () => {
    const { subscription, at } = await subscribe();
    const periodEnd = addCalendarMonths(at, 1);
    const resumesAt = new Date(periodEnd.getTime() + 45 * DAY_MS);
    const crashed: string[] = [];
    await withWorker(
      async (taskQueue) => {
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
        await harness.env.sleep(periodEnd.getTime() - (await harness.env.currentTimeMs()) + DAY_MS);
        const paused = await rowOf(subscription.id);
        expect(paused).toMatchObject({ status: 'paused', pauseAtPeriodEnd: false, currentPeriodIndex: 0 });
        expect(paused.pausedAt).toEqual(periodEnd);
        expect(paused.resumesAt).toEqual(resumesAt);
        expect(await ordersOf(subscription.id)).toEqual([]);
        expect(await handleOf(subscription.id).query<string>('waitingFor')).toBe(
          `the paused subscription to resume, until the subscription resumes: a new period starts and is charged at ${resumesAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
        );

        // Past the month it would have renewed in: still nothing charged.
        await harness.env.sleep(resumesAt.getTime() - (await harness.env.currentTimeMs()) - DAY_MS);
        expect(await chargesOf(subscription.id)).toEqual([]);
        expect((await rowOf(subscription.id)).status).toBe('paused');

        // Resumed at resumes_at: the anchor moves there, the new period is charged at once.
        await harness.env.sleep(2 * DAY_MS);
      },
      { crashAfter: ['runPauseStep', 'renewSubscription'], crashed },
    );
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
      await harness.env.sleep(periodEnd.getTime() - (await harness.env.currentTimeMs()) + 90 * DAY_MS);
      expect((await rowOf(subscription.id)).status).toBe('paused');
      expect(await chargesOf(subscription.id)).toEqual([]);
      expect(await handleOf(subscription.id).query<string>('waitingFor')).toMatch(
        /^the seller or the customer to resume the paused subscription, since .*, with no deadline$/,
      );
      expect((await handleOf(subscription.id).describe()).status.name).toBe('RUNNING');

      // Resumed by hand at the server's time (the API dates a change with the wall clock, which the
      // time-skipping server has left behind): the change `resumeNow` makes, then the signal.
      const resumedAt = new Date(await harness.env.currentTimeMs());
      const paused = await harness.db.subscription.findUniqueOrThrow({
        where: { id: subscription.id },
        include: subscriptionInclude,
      });
      await harness.db.subscription.update({
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
      await harness.env.sleep(row.currentPeriodEnd.getTime() - (await harness.env.currentTimeMs()) + DAY_MS);
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
      await harness.env.sleep(
        addCalendarMonths(at, 1).getTime() - (await harness.env.currentTimeMs()) + DAY_MS,
      );
      expect(await rowOf(subscription.id)).toMatchObject({ status: 'active', currentPeriodIndex: 1 });
      expect((await ordersOf(subscription.id)).map((order) => order.status)).toEqual(['paid']);
    });
  });
});
