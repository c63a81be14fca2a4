import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Polar } from '@polar-sh/sdk';
import { callV1 } from '../../test/http.js';
import { buyInSandbox, createAccessToken, createOrganization } from '../../test/factories.js';
import { eventually } from '../../test/eventually.js';
import { parseScrape, scrape } from '../../test/prometheus.js';
import { useTestStack } from '../../test/stack.js';
import { startWebhookReceiver } from '../../test/webhook-receiver.js';
import { startMetricsServer } from '../../infra/metrics.js';
import { recordPaymentAttempt } from '../../domain/orders/repository.js';
import { createWorkerMetrics } from '../../temporal/metrics.js';

const TOKEN = 'metrics-test-token-0123456789';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('GET /metrics with the stack', () => {
  const env = useTestStack({ metrics: { token: TOKEN } });
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });

  const read = async () => {
    const answer = await scrape(`${env.stack.baseUrl}/metrics`, TOKEN);
    expect(answer.status).toBe(200);
    return parseScrape(answer.text);
  };

  it('refuses a scrape without the token, or with another one', async () => {
    const without = await scrape(`${env.stack.baseUrl}/metrics`);
    expect(without.status).toBe(401);
    expect(without.text).not.toContain('tollgate_');
    expect((await scrape(`${env.stack.baseUrl}/metrics`, `${TOKEN}x`)).status).toBe(401);
  });

  it('counts a checkout, its webhook delivery and an ingest, with no id in any label', async () => {
    const organization = await createOrganization(env.database.db, { name: 'Acme' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const receiver = await startWebhookReceiver();
    stops.push(receiver.stop);
    await polar.webhooks.createWebhookEndpoint({
      url: receiver.url,
      format: 'raw',
      secret: 'tollgate_whs_metrics-test-secret',
      events: ['order.paid'],
    });
    const lamp = await polar.products.create({
      name: 'Desk lamp',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 4900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'ada@example.test', name: 'Ada' });
    const before = await read();

    await buyInSandbox(polar, env.stack.baseUrl, lamp.id, customer.id);
    await receiver.waitFor(1);
    const ingest = (events: Record<string, unknown>[]) =>
      callV1(env.stack.baseUrl, token, 'POST', '/events/ingest', { events });
    expect(
      (
        await ingest([
          { name: 'api_call', customer_id: customer.id },
          { name: 'api_call', customer_id: customer.id, external_id: 'call-1' },
        ])
      ).status,
    ).toBe(200);
    // The same external_id again is a duplicate, not a second event.
    expect(
      (await ingest([{ name: 'api_call', customer_id: customer.id, external_id: 'call-1' }])).status,
    ).toBe(200);
    expect((await ingest([{ name: 'api_call', customer_id: randomUUID() }])).status).toBe(422);

    const delta = (
      after: ReturnType<typeof parseScrape>,
      name: string,
      labels: Record<string, string> = {},
    ) => after.value(name, labels) - before.value(name, labels);
    // The webhook's counter moves once its attempt's answer is read, just after the receiver answered.
    const after = await eventually(
      read,
      (scraped) => delta(scraped, 'tollgate_webhook_deliveries_total', { outcome: 'succeeded' }) >= 1,
    );
    expect(delta(after, 'tollgate_checkouts_succeeded_total', { kind: 'one_time' })).toBe(1);
    expect(
      delta(after, 'tollgate_webhook_deliveries_total', {
        format: 'raw',
        outcome: 'succeeded',
        attempt: 'first',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      after.count('tollgate_webhook_delivery_lag_seconds', { format: 'raw' }) -
        before.count('tollgate_webhook_delivery_lag_seconds', { format: 'raw' }),
    ).toBeGreaterThanOrEqual(1);
    expect(delta(after, 'tollgate_events_ingested_total', { outcome: 'inserted' })).toBe(2);
    expect(delta(after, 'tollgate_events_ingested_total', { outcome: 'duplicate' })).toBe(1);
    expect(delta(after, 'tollgate_events_rejected_total')).toBe(1);
    expect(
      delta(after, 'tollgate_http_requests_total', { operation: 'checkouts:create', status_class: '2xx' }),
    ).toBe(1);
    expect(
      delta(after, 'tollgate_http_requests_total', { operation: 'events:ingest', status_class: '4xx' }),
    ).toBe(1);

    // The queue gauges were read from the database at this scrape.
    expect(after.value('tollgate_operational_state_up')).toBe(1);
    expect(after.families.get('tollgate_outbox_backlog')?.type).toBe('GAUGE');
    expect(after.value('tollgate_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.value('tollgate_subscriptions_dunning')).toBe(0);
    expect(after.value('tollgate_webhook_endpoints_disabled', { reason: 'gone' })).toBe(0);
    expect(after.value('tollgate_db_pool_connections', { state: 'max' })).toBe(
      env.database.db.sql.options.max,
    );
    expect(after.families.has('tollgate_db_pool_waiting')).toBe(true);
    expect(after.families.has('tollgate_nodejs_eventloop_lag_p99_seconds')).toBe(true);

    for (const family of after.families.values()) {
      for (const sample of family.metrics) {
        for (const value of Object.values(sample.labels ?? {})) expect(value).not.toMatch(UUID);
      }
    }
  });

  it('counts a try to collect an order once, however often its step records it', async () => {
    const organization = await createOrganization(env.database.db, { name: 'Renewals' });
    const token = await createAccessToken(env.database.db, organization.id);
    const polar = new Polar({ accessToken: token, serverURL: env.stack.baseUrl });
    const lamp = await polar.products.create({
      name: 'Lamp',
      recurringInterval: null,
      prices: [{ amountType: 'fixed', priceAmount: 900, priceCurrency: 'usd' }],
    });
    const customer = await polar.customers.create({ email: 'bob@example.test', name: 'Bob' });
    await buyInSandbox(polar, env.stack.baseUrl, lamp.id, customer.id);
    const order = await env.database.db.order.findFirstOrThrow({ where: { customerId: customer.id } });
    const before = await read();
    const attempt = (number: number, status: 'succeeded' | 'failed') =>
      recordPaymentAttempt(env.database.db.sql, {
        orderId: order.id,
        attempt: number,
        status,
        createdAt: new Date(),
      });
    await attempt(1, 'failed');
    // A retried step records the same try again: the row is kept once, and so is the count.
    await attempt(1, 'failed');
    await attempt(2, 'succeeded');
    const after = await read();
    const delta = (labels: Record<string, string>) =>
      after.value('tollgate_renewal_payment_tries_total', labels) -
      before.value('tollgate_renewal_payment_tries_total', labels);
    expect(delta({ try: 'first', outcome: 'failed' })).toBe(1);
    expect(delta({ try: 'retry', outcome: 'succeeded' })).toBe(1);
    expect(delta({})).toBe(2);
  });

  it("serves the worker's registry on a listener of its own, behind the same token", async () => {
    const listener = await startMetricsServer({
      registry: createWorkerMetrics(env.database.db),
      port: 0,
      host: '127.0.0.1',
      token: TOKEN,
    });
    stops.push(listener.close);
    const url = `http://127.0.0.1:${listener.port}`;
    expect((await scrape(`${url}/metrics`)).status).toBe(401);
    expect((await scrape(`${url}/other`, TOKEN)).status).toBe(404);
    const answer = await scrape(`${url}/metrics`, TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/plain');
    const scraped = parseScrape(answer.text);
    expect(scraped.value('tollgate_operational_state_up')).toBe(1);
    expect(scraped.families.get('tollgate_webhook_deliveries_total')?.type).toBe('COUNTER');
    expect(scraped.families.get('tollgate_renewal_payment_tries_total')?.type).toBe('COUNTER');
    expect(scraped.families.get('tollgate_db_pool_connections')?.type).toBe('GAUGE');
    expect(scraped.families.has('tollgate_process_resident_memory_bytes')).toBe(true);
    // The API's own request metrics are the API's: the worker serves none.
    expect(scraped.families.has('tollgate_http_requests_total')).toBe(false);
  });
});
