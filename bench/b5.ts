// B5: 1,000 subscriptions due at the same instant, the time until every renewal order is paid.
//
// The stack of bench/stack.ts (one PostgreSQL, one Temporal dev server, the API and one worker in
// this process, the webhook dispatcher running). One plan is bought through the real checkout
// (sandbox card pm_card_visa), which gives a saved card; N subscriptions of N customers are then
// seeded in the database with that card and `current_period_end` = T0 = now + B5_LEAD_MS, and
// their `subscription:<id>` workflows started (each welcomes its buyer, reads its row and waits on
// a timer until T0). Figure: from T0 until all N renewal orders (`subscription_cycle`, 25.00 USD)
// are paid: timer, renewal (row lock, order, events), off-session charge under its key, settlement,
// receipt email (one local activity), then continue-as-new handing the row's state to the new run,
// which starts its next timer without reading it again. Proof afterwards, from the database
// and Temporal's histories: each subscription has exactly one paid renewal and is in period 1, and
// each first run's timer fired (it waited for T0; stderr warns when not, then raise B5_LEAD_MS).
// Baseline: N workflows doing start → one activity that does nothing → complete, all started at
// once on the same server and worker process, timed from the first start to the last result.
// Ratio: baseline time / figure time (equal work rates would be 1).
import { randomUUID } from 'node:crypto';
import { Polar } from '@polar-sh/sdk';
import { z } from 'zod';
import { subscriptionWorkflowId } from '../domain/subscriptions/rules.js';
import type { subscriptionWorkflow } from '../workflows/subscriptions.js';
import type { oneActivityWorkflow } from './bench-workflows.js';
import type { BenchmarkResult } from './lib.js';
import { inLanes, seller, startBenchStack, waitUntil } from './stack.js';

const settingsSchema = z.object({
  B5_SUBSCRIPTIONS: z.coerce.number().int().positive().default(1000),
  /** From the seeding to T0: every workflow must have started and be waiting on its timer by then. */
  B5_LEAD_MS: z.coerce.number().int().positive().default(60_000),
  /** Workflow starts in flight at once (the subscriptions' and the baseline's). */
  B5_START_LANES: z.coerce.number().int().positive().default(50),
});

const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };
/** Histories read afterwards for the workflow actions per renewal. */
const SAMPLED_HISTORIES = 20;

export async function runB5(): Promise<BenchmarkResult> {
  const settings = settingsSchema.parse(process.env);
  const count = settings.B5_SUBSCRIPTIONS;
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const { db, temporal, taskQueue, api } = await startBenchStack('b5', cleanups);
    const shop = await seller(db, api.baseUrl, 'Bench renewals', 'month');

    // One plan bought for real: its saved card is the one every seeded subscription renews with.
    const checkout = await shop.polar.checkouts.create({ products: [shop.product.id] });
    await new Polar({ serverURL: api.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'bench-buyer@example.test',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });
    await waitUntil(
      'the first plan bought',
      async () => (await db.subscription.count({ where: { organizationId: shop.organization.id } })) === 1,
    );
    const bought = await db.subscription.findFirstOrThrow({
      where: { organizationId: shop.organization.id },
    });

    const t0 = new Date(Date.now() + settings.B5_LEAD_MS);
    const anchor = new Date(t0);
    anchor.setUTCMonth(anchor.getUTCMonth() - 1);
    const customers = await db.customer.createManyAndReturn({
      data: Array.from({ length: count }, (_, index) => ({
        organizationId: shop.organization.id,
        email: `renewal-${index}-${randomUUID().slice(0, 8)}@example.test`,
        name: `Buyer ${index}`,
      })),
      select: { id: true },
    });
    const subscriptions = await db.subscription.createManyAndReturn({
      data: customers.map((customer) => ({
        organizationId: shop.organization.id,
        customerId: customer.id,
        productId: shop.product.id,
        status: 'active',
        amount: 2500,
        currency: 'usd',
        recurringInterval: 'month',
        billingAnchor: anchor,
        currentPeriodStart: anchor,
        currentPeriodEnd: t0,
        startedAt: anchor,
        paymentProcessor: bought.paymentProcessor,
        processorCustomerId: bought.processorCustomerId,
        paymentMethodId: bought.paymentMethodId,
        paymentMethod: bought.paymentMethod ?? undefined,
        periodBilled: 2500,
        periodLedgerSince: anchor,
        createdAt: anchor,
      })),
      select: { id: true },
    });
    const ids = subscriptions.map((row) => row.id);
    await db.subscriptionPrice.createMany({
      data: ids.map((subscriptionId) => ({ subscriptionId, productPriceId: shop.priceId, amount: 2500 })),
    });

    const firstRuns = new Map<string, string>();
    const startsBegan = performance.now();
    await inLanes(ids, settings.B5_START_LANES, async (subscriptionId) => {
      const handle = await temporal.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
        workflowId: subscriptionWorkflowId(subscriptionId),
        taskQueue,
        args: [{ subscriptionId }],
      });
      firstRuns.set(subscriptionId, handle.firstExecutionRunId);
    });
    const startSeconds = (performance.now() - startsBegan) / 1000;
    if (Date.now() >= t0.getTime()) {
      console.error(
        `B5: starting ${count} workflows took past T0; raise B5_LEAD_MS above ${settings.B5_LEAD_MS}`,
      );
    }

    const paidRenewals = () =>
      db.order.count({
        where: { subscriptionId: { in: ids }, billingReason: 'subscription_cycle', status: 'paid' },
      });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, t0.getTime() - Date.now())));
    const fromT0 = performance.now() - (Date.now() - t0.getTime());
    await waitUntil('every renewal paid', async () => (await paidRenewals()) === count, 30 * 60_000);
    const renewalSeconds = (performance.now() - fromT0) / 1000;

    // Proof: one paid renewal of the plan's price each, every subscription in its second period.
    const renewals = await db.order.findMany({
      where: { subscriptionId: { in: ids }, billingReason: 'subscription_cycle' },
      select: { subscriptionId: true, totalAmount: true, status: true },
    });
    const renewedOnce = new Set(renewals.map((order) => order.subscriptionId));
    if (renewals.length !== count || renewedOnce.size !== count) {
      throw new Error(`B5: ${renewals.length} renewal orders for ${count} subscriptions`);
    }
    if (renewals.some((order) => order.totalAmount !== 2500 || order.status !== 'paid')) {
      throw new Error('B5: a renewal order is not a paid 25.00 USD');
    }
    const inPeriodOne = await db.subscription.count({
      where: { id: { in: ids }, currentPeriodIndex: 1, status: 'active' },
    });
    if (inPeriodOne !== count) throw new Error(`B5: ${inPeriodOne} of ${count} subscriptions in period 1`);

    // From the histories: whether each first run waited for T0, and the actions one renewal cost.
    let timersFired = 0;
    let sampledActivities = 0;
    let sampledLocalActivities = 0;
    let sampledWorkflowTasks = 0;
    let sampledEvents = 0;
    let sampled = 0;
    for (const subscriptionId of ids) {
      const workflowId = subscriptionWorkflowId(subscriptionId);
      const first = await temporal.workflow
        .getHandle(workflowId, firstRuns.get(subscriptionId))
        .fetchHistory();
      const events = first.events ?? [];
      const fired = events.findIndex((event) => event.timerFiredEventAttributes);
      if (fired >= 0) timersFired += 1;
      if (sampled >= SAMPLED_HISTORIES || fired < 0) continue;
      sampled += 1;
      // The renewal: everything after the timer fired, then the continued run up to its next wait.
      const renewal = events.slice(fired);
      const continued = (await temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const untilWait = continued.slice(
        0,
        continued.findIndex((event) => event.timerStartedEventAttributes) + 1 || continued.length,
      );
      for (const event of [...renewal, ...untilWait]) {
        sampledEvents += 1;
        if (event.activityTaskScheduledEventAttributes) sampledActivities += 1;
        if (event.markerRecordedEventAttributes) sampledLocalActivities += 1;
        if (event.workflowTaskCompletedEventAttributes) sampledWorkflowTasks += 1;
      }
    }
    if (timersFired < count) {
      console.error(
        `B5: only ${timersFired} of ${count} workflows waited for T0 on their timer; raise B5_LEAD_MS above ${settings.B5_LEAD_MS}`,
      );
    }
    await Promise.all(
      ids.map((subscriptionId) =>
        temporal.workflow
          .getHandle(subscriptionWorkflowId(subscriptionId))
          .terminate('bench done')
          .catch(() => undefined),
      ),
    );

    // ---- baseline ----
    const runBaseline = (workflows: number) =>
      inLanes(
        Array.from({ length: workflows }, () => `bench-one-activity:${randomUUID()}`),
        workflows,
        async (workflowId) => {
          await temporal.workflow.execute<typeof oneActivityWorkflow>('oneActivityWorkflow', {
            workflowId,
            taskQueue,
            args: [],
          });
        },
      );
    await runBaseline(settings.B5_START_LANES);
    const baselineBegan = performance.now();
    await runBaseline(count);
    const baselineSeconds = (performance.now() - baselineBegan) / 1000;

    const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
    return {
      benchmark: 'B5',
      description: `${count} subscriptions (seeded, each with its running subscription:<id> workflow waiting on its timer) due at the same instant T0; from T0 until every renewal order is paid (timer, renewal with its order and events, off-session sandbox charge, settlement, receipt email, continue-as-new with the state handed to the new run, which starts its next timer). Baseline: ${count} workflows of start → one activity that does nothing → complete, all started at once on the same Temporal dev server and worker process, first start to last result. Ratio: baseline time / figure time.`,
      figure: {
        name: 'renewals due at once, all paid',
        value: round(renewalSeconds),
        unit: 's',
        details: {
          subscriptions: count,
          renewals_per_second: round(count / renewalSeconds, 1),
          start_seconds: round(startSeconds),
          timers_fired: timersFired,
          activities_per_renewal: round(sampledActivities / Math.max(sampled, 1), 1),
          local_activities_per_renewal: round(sampledLocalActivities / Math.max(sampled, 1), 1),
          workflow_tasks_per_renewal: round(sampledWorkflowTasks / Math.max(sampled, 1), 1),
          history_events_per_renewal: round(sampledEvents / Math.max(sampled, 1), 1),
          sampled_histories: sampled,
        },
      },
      baseline: {
        name: 'one-activity workflows',
        value: round(baselineSeconds),
        unit: 's',
        details: { workflows: count, per_second: round(count / baselineSeconds, 1) },
      },
      ratio: round(baselineSeconds / renewalSeconds, 3),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
