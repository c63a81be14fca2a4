// Stuck work found before a buyer writes in (issue 38): a checkout's charge failing at the
// processor past its threshold of attempts shows on the operators' page (platform admins only),
// in `tollgate_stuck_work` and as `TollgateStuck` on its workflow, and leaves all three once the
// processor answers again; the database's signals (an old outbox event, an endpoint failing for an
// hour, a checkout confirmed an hour ago) show the same way.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { STUCK } from '../../domain/operators/rules.js';
import { stuckWorkReportSchema, type StuckWorkReport } from '../../domain/operators/schemas.js';
import { reviewStuckWork } from '../../domain/operators/stuck-work-service.js';
import type { PaymentProcessor } from '../../domain/payments/processor.js';
import { createSandboxProcessor } from '../../integrations/sandbox/processor.js';
import { signUpUser } from '../../test/auth-client.js';
import { eventually } from '../../test/eventually.js';
import {
  createAccessToken,
  createOrganization,
  createProduct,
  createWebhookEndpoint,
} from '../../test/factories.js';
import { parseScrape, scrape } from '../../test/prometheus.js';
import { useTestStack } from '../../test/stack.js';

const METRICS_TOKEN = 'stuck-work-metrics-token-0123456789';
const ADDRESS = { country: 'DE', city: 'Berlin', postalCode: '10117', line1: 'Unter den Linden 1' };
const HOUR_MS = 60 * 60 * 1000;

describe('stuck work: the operators’ page, the metric and the search attribute', () => {
  // The processor refuses every charge (a network failure, retried) until it is mended.
  let processorDown = true;
  let sandbox: PaymentProcessor | undefined;
  const real = () =>
    (sandbox ??= createSandboxProcessor({ db: env.database.db, sink: env.stack.workflows.processorEvents }));
  const processor = new Proxy({} as PaymentProcessor, {
    get: (_target, key: keyof PaymentProcessor) => {
      if (key === 'name') return 'sandbox';
      if (key === 'pay' && processorDown) {
        return async () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:443 (the processor is down)');
        };
      }
      return (...args: never[]) => (real()[key] as (...args: never[]) => unknown)(...args);
    },
  });
  const env = useTestStack({ processor, stuckActivityAttempts: 3, metrics: { token: METRICS_TOKEN } });

  const review = () =>
    reviewStuckWork({
      db: env.database.db,
      publicUrl: env.stack.baseUrl,
      workflows: env.stack.workflows.operators,
    });
  const stuckOf = async (workflowId: string) =>
    (await env.stack.temporal.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(STUCK) ??
    null;
  const stuckGauge = async (kind: string) =>
    parseScrape((await scrape(`${env.stack.baseUrl}/metrics`, METRICS_TOKEN)).text).value(
      'tollgate_stuck_work',
      {
        kind,
      },
    );

  async function admin() {
    const user = await signUpUser(env.stack.baseUrl);
    await env.database.db.user.update({ where: { id: user.user.id }, data: { role: 'admin' } });
    return user;
  }
  async function page(headers: Record<string, string> = {}) {
    const response = await fetch(`${env.stack.baseUrl}/api/operators/stuck-work`, { headers });
    return { status: response.status, body: (await response.json()) as unknown };
  }
  const report = async (headers: Record<string, string>): Promise<StuckWorkReport> =>
    stuckWorkReportSchema.parse((await page(headers)).body);

  it('only platform admins read the page; others are told why', async () => {
    expect(await page()).toMatchObject({ status: 401, body: { error: 'Unauthorized' } });
    const seller = await signUpUser(env.stack.baseUrl);
    expect(await page(seller.sessionHeaders())).toMatchObject({
      status: 403,
      body: { error: 'NotPermitted' },
    });
    const operator = await admin();
    const empty = await report(operator.sessionHeaders());
    expect(empty.items).toEqual([]);
    expect(empty.counts).toEqual({
      activity_retrying: 0,
      outbox_event_old: 0,
      webhook_endpoint_failing: 0,
      checkout_unsettled: 0,
    });
    expect(empty.thresholds.activity_retrying).toBe('8 attempts or more');
  });

  it('a charge failing past its threshold is listed, counted and marked, and cleared once it goes through', async () => {
    const operator = await admin();
    const organization = await createOrganization(env.database.db, { name: 'Stuck Shop' });
    const polar = new Polar({
      accessToken: await createAccessToken(env.database.db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const product = await createProduct(polar, {
      name: 'Atlas',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 1200, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await new Polar({ serverURL: env.stack.baseUrl }).checkouts.clientConfirm({
      clientSecret: checkout.clientSecret,
      checkoutConfirmStripe: {
        customerEmail: 'stuck@example.test',
        customerBillingAddress: ADDRESS,
        confirmationTokenId: 'pm_card_visa',
      },
    });

    // Attempts 1 and 2 are a blip; the third failure (about 3 s in) records the activity.
    const listed = await eventually(
      () => report(operator.sessionHeaders()),
      (answer) => answer.items.some((item) => item.kind === 'activity_retrying'),
      30_000,
    );
    const [stuck] = listed.items;
    expect(stuck).toMatchObject({
      kind: 'activity_retrying',
      summary: expect.stringMatching(/^Attempt \d+ of chargeCheckout \(checkoutWorkflow\)$/),
      detail: expect.stringContaining('ECONNREFUSED'),
      workflow_id: `checkout:${checkout.id}`,
    });
    expect(await stuckGauge('activity_retrying')).toBe(1);

    // The review learns whose it is from the run and marks the run for the Temporal UI's filter.
    expect(await review()).toMatchObject({ dropped: 0, flagged: 1, cleared: 0 });
    await eventually(
      () => stuckOf(`checkout:${checkout.id}`),
      (kind) => kind === 'activity_retrying',
    );
    const reviewed = await report(operator.sessionHeaders());
    expect(reviewed.items).toEqual([
      expect.objectContaining({
        kind: 'activity_retrying',
        organization: { id: organization.id, name: 'Stuck Shop' },
        entity: { kind: 'checkout', id: checkout.id },
        dashboard_url: `${env.stack.baseUrl}/dashboard/checkouts`,
      }),
    ]);
    // A second review changes nothing.
    expect(await review()).toMatchObject({ dropped: 0, flagged: 0, cleared: 0 });

    // The processor answers again: the next attempt charges, and everything clears.
    processorDown = false;
    await eventually(
      () => polar.checkouts.get({ id: checkout.id }),
      (value) => value.status === 'succeeded',
      60_000,
    );
    expect((await report(operator.sessionHeaders())).items).toEqual([]);
    expect(await stuckGauge('activity_retrying')).toBe(0);
    expect(await review()).toMatchObject({ cleared: 1 });
    await eventually(
      () => stuckOf(`checkout:${checkout.id}`),
      (kind) => kind === null,
    );
  }, 120_000);

  it('an old undispatched event, an endpoint failing for an hour and a checkout confirmed an hour ago are listed and counted', async () => {
    const operator = await admin();
    // With no worker the outbox is not dispatched and nothing else moves.
    await env.stack.stopWorker();
    const db = env.database.db;
    const organization = await createOrganization(db, { name: 'Quiet Shop' });
    const longAgo = new Date(Date.now() - 2 * HOUR_MS);
    await db.outboxEvent.create({
      data: {
        organizationId: organization.id,
        type: 'organization.updated',
        payload: {},
        createdAt: longAgo,
      },
    });
    // An endpoint whose events since its last success have all failed, the oldest two hours ago.
    const endpoint = await createWebhookEndpoint(db, organization.id, {
      url: 'https://hooks.example.test/broken',
    });
    const resourceId = randomUUID();
    for (const [offsetMs, status] of [
      [3 * HOUR_MS, 'succeeded'],
      [2 * HOUR_MS, 'failed'],
      [HOUR_MS / 2, 'pending'],
    ] as const) {
      const outboxEvent = await db.outboxEvent.create({
        data: {
          organizationId: organization.id,
          type: 'organization.updated',
          payload: {},
          dispatchedAt: new Date(),
        },
      });
      const event = await db.webhookEvent.create({
        data: {
          organizationId: organization.id,
          endpointId: endpoint.id,
          outboxEventId: outboxEvent.id,
          type: 'organization.updated',
          resourceId: status === 'failed' ? resourceId : randomUUID(),
          payload: '{}',
          status,
          lastHttpCode: status === 'succeeded' ? 200 : 502,
          createdAt: new Date(Date.now() - offsetMs),
          modifiedAt: new Date(Date.now() - offsetMs),
        },
      });
      await db.webhookDelivery.create({
        data: {
          organizationId: organization.id,
          webhookEventId: event.id,
          round: 'dispatch',
          attempt: 1,
          succeeded: status === 'succeeded',
          httpCode: status === 'succeeded' ? 200 : 502,
          durationMs: 40,
          createdAt: new Date(Date.now() - offsetMs),
        },
      });
    }
    const polar = new Polar({
      accessToken: await createAccessToken(db, organization.id),
      serverURL: env.stack.baseUrl,
    });
    const product = await createProduct(polar, {
      name: 'Globe',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4550, priceCurrency: 'usd' }],
    });
    const checkout = await polar.checkouts.create({ products: [product.id] });
    await db.checkout.update({
      where: { id: checkout.id },
      data: { status: 'confirmed', modifiedAt: longAgo },
    });

    const answer = await report(operator.sessionHeaders());
    expect(answer.counts).toEqual({
      activity_retrying: 0,
      outbox_event_old: 1,
      webhook_endpoint_failing: 1,
      checkout_unsettled: 1,
    });
    expect(answer.items).toEqual([
      expect.objectContaining({
        kind: 'outbox_event_old',
        summary: '1 webhook event not dispatched',
        since: longAgo.toISOString(),
        workflow_id: `webhook-dispatcher:${env.stack.taskQueuePrefix}`,
      }),
      expect.objectContaining({
        kind: 'webhook_endpoint_failing',
        summary: '2 events not delivered to https://hooks.example.test/broken',
        detail: 'Last answer: HTTP 502.',
        workflow_id: `webhook-delivery:${endpoint.id}:${resourceId}`,
        organization: { id: organization.id, name: 'Quiet Shop' },
        entity: { kind: 'webhook_endpoint', id: endpoint.id },
      }),
      expect.objectContaining({
        kind: 'checkout_unsettled',
        summary: 'Checkout of $45.50 confirmed, not charged',
        since: longAgo.toISOString(),
        workflow_id: `checkout:${checkout.id}`,
        entity: { kind: 'checkout', id: checkout.id },
      }),
    ]);
    expect(await stuckGauge('outbox_event_old')).toBe(1);
    expect(await stuckGauge('webhook_endpoint_failing')).toBe(1);
    expect(await stuckGauge('checkout_unsettled')).toBe(1);
    // The checkout's run is open (its worker is away): the review marks it.
    expect(await review()).toMatchObject({ flagged: 2 });
    // Its signal waits in the run's history for a worker to take it: the mark follows the restart.
    await env.stack.startWorker();
    await eventually(
      () => stuckOf(`checkout:${checkout.id}`),
      (kind) => kind === 'checkout_unsettled',
    );
  }, 60_000);
});
