// Issue 34's proof: each path of the subscription workflow, run twice on the time-skipping server,
// once undisturbed and once with the worker killed after every step that writes (each run of it,
// every renewal's and every email's: test/crash.ts). What the database holds afterwards must be
// the same: no order, charge, benefit grant (or grant cycle), email or webhook lost or made twice.
// The counts are read from the rows (orders, the processor's charges, grants after the grant
// dispatcher's work, the email outbox, the webhook outbox), not from what the workflow reports.
import { describe, expect, it } from '@jest/globals';
import { changeSubscriptionProduct } from '../domain/subscriptions/changes.js';
import { pauseAtPeriodEnd, resumeNow } from '../domain/subscriptions/pausing.js';
import { clearPendingUpdate } from '../domain/subscriptions/pending-updates.js';
import { findSubscription, subscriptionInclude } from '../domain/subscriptions/repository.js';
import { addCalendarMonths } from '../domain/subscriptions/rules.js';
import { applySubscriptionChange } from '../domain/subscriptions/service.js';
import { eventually } from '../test/eventually.js';
import { createOrganization } from '../test/factories.js';
import {
  DAY_MS,
  subscriptionWorkflowHarness,
  type SubscribeOptions,
} from '../test/subscription-workflow-harness.js';

type Effects = Awaited<ReturnType<ReturnType<typeof subscriptionWorkflowHarness>['effectsOf']>>;

type Run = {
  subscriptionId: string;
  at: Date;
  taskQueue: string;
  /** Brings the grants about and records what the database holds at this point of the path. */
  checkpoint(): Promise<void>;
};

/** What is bought, and the plan to move to for a plan change. */
type Purchase = SubscribeOptions & { premiumId?: string };

type Path = {
  /** What is bought; a function when it needs rows of its own (a second plan to move to). */
  plan: Purchase | (() => Promise<Purchase>);
  /** The path, once the workflow is started; it ends with the workflow waiting or ended. */
  walk(run: Run, extra: { premiumId?: string }): Promise<void>;
};

/** Two walks of a path, the second with a retry (a second or so) after every step. */
const PATH_TIMEOUT_MS = 120_000;

describe('subscriptionWorkflow: a worker killed at every step boundary (time-skipping)', () => {
  const harness = subscriptionWorkflowHarness('crashes');

  /**
   * The rows' keys name the subscription, and emails name days (the second run starts later on the
   * server's clock): the two runs' are compared without them.
   */
  const anonymous = (effects: Effects, subscriptionId: string): Effects =>
    JSON.parse(
      JSON.stringify(effects)
        .replaceAll(subscriptionId, '<subscription>')
        .replace(/[A-Z][a-z]+ \d{1,2}, \d{4}/g, '<day>'),
    ) as Effects;

  async function walk(path: Path, crashed?: string[]) {
    const options: Purchase = typeof path.plan === 'function' ? await path.plan() : path.plan;
    const { subscription, at } = await harness.subscribe(options);
    // The grant dispatcher grants the plan's benefits right after the checkout, before any renewal.
    await harness.settleGrants();
    const snapshots: Effects[] = [];
    const checkpoint = async () => {
      await harness.parked(subscription.id);
      await harness.settleGrants();
      snapshots.push(anonymous(await harness.effectsOf(subscription.id), subscription.id));
    };
    await harness.withWorker(
      async (taskQueue) => {
        await harness.start(taskQueue, subscription.id);
        await path.walk({ subscriptionId: subscription.id, at, taskQueue, checkpoint }, options);
        await checkpoint();
      },
      crashed ? { crashed, everyStep: true } : {},
    );
    return snapshots;
  }

  /**
   * Walks the path undisturbed, then killed after every step: the same rows at each checkpoint.
   * Answers the killed run's last snapshot and the steps it was killed after.
   */
  async function sameUnderCrashes(path: Path) {
    const plain = await walk(path);
    const crashed: string[] = [];
    const underCrashes = await walk(path, crashed);
    expect(underCrashes).toEqual(plain);
    return { effects: underCrashes.at(-1)!, crashed, snapshots: underCrashes };
  }

  const count = (steps: string[], step: string) => steps.filter((each) => each === step).length;

  it(
    'trial → converted: one order and one charge at the trial end, the grant kept and cycled once',
    async () => {
      const { effects, crashed } = await sameUnderCrashes({
        plan: { amount: 2000, trialDays: 14, benefit: true },
        walk: async () => harness.env.sleep(15 * DAY_MS),
      });
      expect(effects.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'paid', total: 2000 },
      ]);
      expect(effects.charges).toEqual([
        { key: 'subscription:<subscription>:cycle:1:attempt:1', status: 'succeeded', amount: 2000 },
      ]);
      expect(effects.grants).toEqual([{ held: true, revoked: false, cyclesRequested: 1, cyclesApplied: 1 }]);
      expect(effects.events['benefit_grant.created']).toBe(1);
      expect(effects.events['order.paid']).toBe(1);
      expect(effects.emails).toContain('Your free trial of Pro plan has ended: $20.00 paid');
      expect(new Set(effects.emails).size).toBe(effects.emails.length);
      expect(count(crashed, 'renewSubscription')).toBe(1);
      expect(count(crashed, 'notifySubscription')).toBeGreaterThanOrEqual(1);
    },
    PATH_TIMEOUT_MS,
  );

  it(
    'trial → cancelled: ended at the trial end, nothing ordered or charged, the grant revoked once',
    async () => {
      const { effects, crashed } = await sameUnderCrashes({
        plan: { amount: 2000, trialDays: 14, benefit: true },
        walk: async ({ subscriptionId, taskQueue }) => {
          const { trialEnd } = await harness.rowOf(subscriptionId);
          await harness.db.subscription.update({
            where: { id: subscriptionId },
            data: {
              cancelAtPeriodEnd: true,
              canceledAt: new Date(await harness.env.currentTimeMs()),
              endsAt: trialEnd,
            },
          });
          await harness.workflowsOn(taskQueue).signalChanged(subscriptionId);
          await harness.env.sleep(15 * DAY_MS);
          expect(await harness.handleOf(subscriptionId).result()).toBe('ended');
        },
      });
      expect(effects.orders).toEqual([]);
      expect(effects.charges).toEqual([]);
      expect(effects.grants).toEqual([{ held: false, revoked: true, cyclesRequested: 0, cyclesApplied: 0 }]);
      expect(effects.events['subscription.revoked']).toBe(1);
      expect(effects.events['benefit_grant.revoked']).toBe(1);
      // The trial's end is the step that ends it: one, killed once.
      expect(count(crashed, 'renewSubscription')).toBe(1);
    },
    PATH_TIMEOUT_MS,
  );

  it(
    'trial → first charge declined → dunning: one order, five failed tries, five emails, then ended unpaid',
    async () => {
      const { effects, crashed } = await sameUnderCrashes({
        plan: { amount: 2000, trialDays: 14, benefit: true, card: 'pm_card_chargeCustomerFail' },
        walk: async ({ subscriptionId }) => {
          await harness.env.sleep(15 * DAY_MS);
          expect(await harness.rowOf(subscriptionId)).toMatchObject({
            status: 'past_due',
            failedAttempts: 1,
          });
          await harness.env.sleep(25 * DAY_MS);
          expect(await harness.handleOf(subscriptionId).result()).toBe('ended');
        },
      });
      expect(effects.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'pending', total: 2000 },
      ]);
      expect(effects.charges.map((charge) => [charge.key.split(':').at(-1), charge.status])).toEqual(
        [1, 2, 3, 4, 5].map((attempt) => [String(attempt), 'failed']),
      );
      expect(effects.emails.filter((subject) => subject === 'Your payment for Pro plan failed')).toHaveLength(
        4,
      );
      expect(effects.emails).toContain('Your Pro plan subscription ended: payment failed');
      // The conversion asked for a cycle of the grant; revoked when the plan ended unpaid, never cycled.
      expect(effects.grants).toEqual([{ held: false, revoked: true, cyclesRequested: 1, cyclesApplied: 0 }]);
      expect(effects.events['subscription.revoked']).toBe(1);
      expect(effects.events['subscription.past_due']).toBe(1);
      expect(count(crashed, 'collectSubscriptionOrder')).toBe(4);
      expect(count(crashed, 'notifySubscriptionPaymentFailed')).toBe(5);
    },
    PATH_TIMEOUT_MS,
  );

  /** Set to pause at the end of its first period, then past that end: paused, nothing billed. */
  async function pauseAfterFirstPeriod(run: Run, resumesAt: Date | null) {
    await applySubscriptionChange(
      harness.changeContext(run.taskQueue),
      run.subscriptionId,
      pauseAtPeriodEnd(resumesAt),
    );
    await harness.sleepUntil(addCalendarMonths(run.at, 1), 1);
    expect(await harness.rowOf(run.subscriptionId)).toMatchObject({ status: 'paused' });
    await run.checkpoint();
  }

  it(
    'pause → paused → resumed at resumes_at: the grant revoked while paused and given back, one order after',
    async () => {
      const { snapshots, crashed } = await sameUnderCrashes({
        plan: { benefit: true },
        walk: async (run) => {
          const resumesAt = new Date(addCalendarMonths(run.at, 1).getTime() + 45 * DAY_MS);
          await pauseAfterFirstPeriod(run, resumesAt);
          await harness.sleepUntil(resumesAt, 1);
          expect(await harness.rowOf(run.subscriptionId)).toMatchObject({
            status: 'active',
            currentPeriodIndex: 1,
          });
        },
      });
      const [paused, resumed] = snapshots;
      expect(paused!.orders).toEqual([]);
      expect(paused!.charges).toEqual([]);
      expect(paused!.grants).toEqual([{ held: false, revoked: true, cyclesRequested: 0, cyclesApplied: 0 }]);
      expect(resumed!.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'paid', total: 1500 },
      ]);
      expect(resumed!.charges).toHaveLength(1);
      expect(resumed!.grants).toMatchObject([{ held: true, revoked: false }]);
      expect(resumed!.events['subscription.paused']).toBe(1);
      expect(resumed!.events['subscription.resumed']).toBe(1);
      expect(count(crashed, 'runPauseStep')).toBe(2);
      expect(count(crashed, 'renewSubscription')).toBe(1);
    },
    PATH_TIMEOUT_MS,
  );

  it(
    'pause → paused → resumed by hand: a new period charged once at the resume',
    async () => {
      const { snapshots, crashed } = await sameUnderCrashes({
        plan: { benefit: true },
        walk: async (run) => {
          await pauseAfterFirstPeriod(run, null);
          await harness.env.sleep(10 * DAY_MS);
          // Resumed at the server's time, as `resumeNow` would at the API, then the signal.
          const paused = await harness.db.subscription.findUniqueOrThrow({
            where: { id: run.subscriptionId },
            include: subscriptionInclude,
          });
          await harness.db.subscription.update({
            where: { id: run.subscriptionId },
            data: resumeNow(paused, new Date(await harness.env.currentTimeMs())),
          });
          await harness.workflowsOn(run.taskQueue).signalChanged(run.subscriptionId);
          await eventually(
            () => harness.rowOf(run.subscriptionId),
            (row) => row.currentPeriodIndex === 1 && row.status === 'active',
          );
          // A day on the server's clock lets the new period's steps finish: a worker stopped while
          // a local activity runs leaves the time-skipping server's clock locked for the next test.
          await harness.env.sleep(DAY_MS);
        },
      });
      const [paused, resumed] = snapshots;
      expect(paused!.orders).toEqual([]);
      expect(resumed!.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'paid', total: 1500 },
      ]);
      expect(resumed!.charges).toHaveLength(1);
      // (The grant's return and `subscription.resumed` are the API's resume's: this test resumes the
      // row directly, so only the two runs' sameness is checked for them.)
      expect(count(crashed, 'runPauseStep')).toBe(1);
      expect(count(crashed, 'renewSubscription')).toBe(1);
    },
    PATH_TIMEOUT_MS,
  );

  /** A Pro plan (15.00 a month, with a benefit) bought, and a Premium plan (25.00) to move to. */
  const twoPlans = async () => {
    const organization = await createOrganization(harness.db);
    const pro = await harness.plan(organization.id, { benefit: true });
    const premium = await harness.plan(organization.id, { name: 'Premium plan', amount: 2500 });
    return { product: pro, premiumId: premium.product.id };
  };
  const moveToPremium = async (run: Run, premiumId: string) =>
    changeSubscriptionProduct(
      harness.changeContext(run.taskQueue),
      (await findSubscription(harness.db, run.subscriptionId))!,
      { product_id: premiumId, proration_behavior: 'next_period' },
    );

  it(
    'next-period plan change applied at the renewal: one order at the new price, one charge',
    async () => {
      const { effects, crashed } = await sameUnderCrashes({
        plan: twoPlans,
        walk: async (run, { premiumId }) => {
          await moveToPremium(run, premiumId!);
          await harness.sleepPastPeriodEnd(run.subscriptionId, 1);
        },
      });
      expect(effects.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'paid', total: 2500 },
      ]);
      expect(effects.charges).toEqual([
        { key: 'subscription:<subscription>:cycle:1:attempt:1', status: 'succeeded', amount: 2500 },
      ]);
      // The Pro plan's benefit goes with it: Premium has none.
      expect(effects.grants).toMatchObject([{ held: false, revoked: true }]);
      expect(count(crashed, 'renewSubscription')).toBe(1);
    },
    PATH_TIMEOUT_MS,
  );

  it(
    'next-period plan change cancelled before the renewal: the old plan renewed once',
    async () => {
      const { effects } = await sameUnderCrashes({
        plan: twoPlans,
        walk: async (run, { premiumId }) => {
          await moveToPremium(run, premiumId!);
          await harness.env.sleep(10 * DAY_MS);
          await clearPendingUpdate(harness.changeContext(run.taskQueue), run.subscriptionId);
          await harness.sleepPastPeriodEnd(run.subscriptionId, 1);
        },
      });
      expect(effects.orders).toEqual([
        { requestKey: 'subscription:<subscription>:cycle:1', status: 'paid', total: 1500 },
      ]);
      expect(effects.charges).toHaveLength(1);
      expect(effects.grants).toEqual([{ held: true, revoked: false, cyclesRequested: 1, cyclesApplied: 1 }]);
    },
    PATH_TIMEOUT_MS,
  );

  it('every 3 months for three years: 12 orders, 12 charges, 12 receipts and 12 grant cycles', async () => {
    const { effects, crashed } = await sameUnderCrashes({
      plan: { count: 3, benefit: true },
      walk: async ({ subscriptionId }) => {
        for (let renewal = 1; renewal <= 12; renewal += 1) {
          await harness.sleepPastPeriodEnd(subscriptionId, 1);
        }
        expect(await harness.rowOf(subscriptionId)).toMatchObject({ currentPeriodIndex: 12 });
      },
    });
    expect(effects.orders).toEqual(
      Array.from({ length: 12 }, (_, index) => ({
        requestKey: `subscription:<subscription>:cycle:${index + 1}`,
        status: 'paid',
        total: 1500,
      })),
    );
    expect(new Set(effects.charges.map((charge) => charge.key)).size).toBe(12);
    expect(effects.charges.every((charge) => charge.status === 'succeeded')).toBe(true);
    expect(effects.emails.filter((subject) => subject === 'Receipt for Pro plan')).toHaveLength(12);
    expect(effects.grants).toEqual([{ held: true, revoked: false, cyclesRequested: 12, cyclesApplied: 12 }]);
    expect(effects.events['order.paid']).toBe(12);
    expect(effects.events['subscription.cycled']).toBe(12);
    expect(count(crashed, 'renewSubscription')).toBe(12);
  }, 180_000);
});
