// Scale-out under faults: two API and two worker processes (the production build) on one
// PostgreSQL cluster of this test's own and the harness's Temporal, driven by buyers paying and a
// seller refunding, while one API and one worker are killed with SIGKILL and PostgreSQL restarts.
// Afterwards every checkout has exactly one order and one charge, every refund one processor
// refund, and every webhook event was delivered, none made twice. Meanwhile a test clock carries
// subscriptions of four cadences (monthly, every 3 months, yearly, a monthly plan with a free
// trial) thirteen months on, its renewals and trial conversions run while worker-a is killed:
// each subscription has exactly one order and one charge per period.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client, Connection } from '@temporalio/client';
import { createDb, type Db } from '../infra/db.js';
import { findFreePort } from '../infra/processes.js';
import { projectRoot } from '../scripts/lib/paths.js';
import { ensureDatabase, startLocalPostgres, type LocalPostgres } from '../scripts/lib/postgres.js';
import { migrateDeploy } from '../scripts/lib/prisma-cli.js';
import { reconcileCheckoutsScheduleId } from '../temporal/schedules.js';
import { taskQueues } from '../temporal/task-queues.js';
import { requireTestEnv } from '../test/env.js';
import { createAccessToken, createOrganization } from '../test/factories.js';
import { startWebhookReceiver } from '../test/webhook-receiver.js';
import { createDataDir } from './stack-processes.js';
import { poll } from './support.js';

const CHECKOUTS = 48;
const BUYERS_AT_ONCE = 6;
const REFUNDS = 16;
const PRICE = 2500;
const ADDRESS = { country: 'US', state: 'CA', city: 'Oakland', postal_code: '94607', line1: '1 Broadway' };
const EVENTS = ['order.created', 'order.paid', 'order.refunded', 'refund.created'];
/** Plans renewed on the test clock, and how many periods its advance (13 months and a day) bills. */
const PLANS = [
  { name: 'Monthly', interval: 'month', count: 1, price: 1000, trialDays: 0, periods: 13 },
  { name: 'Quarterly', interval: 'month', count: 3, price: 2700, trialDays: 0, periods: 4 },
  { name: 'Yearly', interval: 'year', count: 1, price: 9900, trialDays: 0, periods: 1 },
  // Converted 14 days in (period 1), then monthly from there.
  { name: 'Trial', interval: 'month', count: 1, price: 1500, trialDays: 14, periods: 13 },
] as const;
const SUBSCRIBERS_PER_PLAN = 4;

type Role = 'api' | 'worker';
type Replica = { name: string; role: Role; port?: number; child?: ChildProcess };

/** What the clients met on the way: every status other than the expected one, and lost connections. */
const turbulence = new Map<string, number>();
const note = (what: string) => turbulence.set(what, (turbulence.get(what) ?? 0) + 1);

describe('two APIs and two workers under SIGKILL and a PostgreSQL restart', () => {
  let dataDir: string;
  let postgres: LocalPostgres;
  let postgresPort: number;
  let databaseUrl: string;
  let db: Db;
  let processEnv: NodeJS.ProcessEnv;
  const replicas: Replica[] = [];
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let temporal: Client;

  const startPostgres = () =>
    startLocalPostgres({
      dataDir: path.join(dataDir, 'postgres'),
      port: postgresPort,
      logFile: path.join(dataDir, 'logs', 'postgres.log'),
    });

  const start = (replica: Replica) => {
    const entry = replica.role === 'api' ? 'dist/api/server.js' : 'dist/temporal/run-worker.js';
    const log = createWriteStream(path.join(dataDir, 'logs', `${replica.name}.log`), { flags: 'a' });
    const child = spawn(process.execPath, [entry], {
      cwd: projectRoot,
      env: { ...processEnv, ...(replica.port ? { PORT: String(replica.port) } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    replica.child = child;
  };
  const kill = async (replica: Replica) => {
    const child = replica.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  const apis = () => replicas.filter((replica) => replica.role === 'api');
  const ready = (replica: Replica) =>
    poll(`${replica.name} to be ready`, async () => {
      const response = await fetch(`http://127.0.0.1:${replica.port}/readyz`);
      return response.status === 200 ? true : undefined;
    });

  beforeAll(async () => {
    dataDir = createDataDir('scale-out');
    postgresPort = await findFreePort();
    postgres = await startPostgres();
    await ensureDatabase(postgres.superuserUrl('postgres'), 'tollgate');
    databaseUrl = postgres.superuserUrl('tollgate');
    await migrateDeploy(databaseUrl);
    db = createDb(databaseUrl, { maxConnections: 4 });
    receiver = await startWebhookReceiver();
    temporal = new Client({
      connection: await Connection.connect({ address: requireTestEnv('temporalAddress') }),
    });
    processEnv = {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: requireTestEnv('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `scale-out-${randomUUID()}`,
      AUTH_SECRET: randomUUID() + randomUUID(),
      PUBLIC_URL: 'http://localhost:3000',
      API_RATE_LIMIT_PER_MINUTE: '100000',
      CHECKOUT_CLIENT_RATE_LIMIT_PER_MINUTE: '100000',
    };
    // Sandbox mode: the receiver listens on this machine's loopback, which only sandbox mode allows.
    delete processEnv.STRIPE_SECRET_KEY;
    for (const name of ['api-a', 'api-b']) replicas.push({ name, role: 'api', port: await findFreePort() });
    for (const name of ['worker-a', 'worker-b']) replicas.push({ name, role: 'worker' });
    replicas.forEach(start);
    await Promise.all(apis().map(ready));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(replicas.map(kill));
    await receiver?.stop();
    await db?.$disconnect();
    await postgres?.stop();
    await temporal?.connection.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  /**
   * A request as a careful client sends it: to one API, and on a lost connection, a 409 or a 5xx to
   * the other after the pause it was told (Retry-After), with the same Idempotency-Key, until
   * `expected` answers.
   */
  let turn = 0;
  async function call<T>(
    method: string,
    url: string,
    options: { token?: string; body?: unknown; idempotencyKey?: string; expected: number[] },
  ): Promise<{ status: number; body: T }> {
    const deadline = Date.now() + 200_000;
    for (;;) {
      const api = apis()[turn++ % 2]!;
      let status: number | string;
      let waitMs = 500;
      try {
        const response = await fetch(`http://127.0.0.1:${api.port}${url}`, {
          method,
          headers: {
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
            ...(options.body ? { 'content-type': 'application/json' } : {}),
            ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
          },
          body: options.body ? JSON.stringify(options.body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await response.text();
        if (options.expected.includes(response.status)) {
          return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
        }
        status = response.status;
        // Anything but an outage or a request still in flight is a real failure.
        if (status < 500 && status !== 409) {
          throw new Error(`${method} ${url} answered ${status}: ${text.slice(0, 300)}`);
        }
        // A request still in flight (409) or an outage (503) says when to come back.
        waitMs = Number(response.headers.get('retry-after') ?? 0.5) * 1000;
        note(
          `${method} ${url.replace(/[0-9a-f-]{36}/g, ':id').replace(/\/client\/[^/]+/, '/client/:secret')} → ${status}`,
        );
      } catch (error) {
        if (error instanceof Error && error.message.includes(' answered ')) throw error;
        note('connection lost or refused');
        status = 'no answer';
      }
      if (Date.now() > deadline) throw new Error(`${method} ${url} still failing (${status})`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  it('loses and duplicates no order, charge, refund or webhook delivery', async () => {
    const organization = await createOrganization(db);
    const token = await createAccessToken(db, organization.id);
    const product = await call<{ id: string }>('POST', '/v1/products/', {
      token,
      idempotencyKey: randomUUID(),
      body: {
        name: 'Field guide',
        prices: [{ amount_type: 'fixed', price_amount: PRICE, price_currency: 'usd' }],
      },
      expected: [201],
    });
    await call('POST', '/v1/webhooks/endpoints', {
      token,
      idempotencyKey: randomUUID(),
      body: { url: receiver.url, format: 'raw', events: EVENTS },
      expected: [201],
    });

    // The renewing seller: its own organization (no webhook endpoint), its customers on one clock.
    const renewing = await createOrganization(db);
    const renewingToken = await createAccessToken(db, renewing.id);
    const asRenewing = { token: renewingToken };
    const startedAt = new Date();
    const subscribed: string[] = [];
    // A clock per plan (a clock holds at most 10 customers), all at the same time.
    const clocks: string[] = [];
    for (const plan of PLANS) {
      const clock = await call<{ id: string }>('POST', '/v1/test-clocks/', {
        ...asRenewing,
        idempotencyKey: randomUUID(),
        body: { name: `Scale-out ${plan.name}`, frozen_time: startedAt.toISOString() },
        expected: [201],
      });
      clocks.push(clock.body.id);
      const planProduct = await call<{ id: string }>('POST', '/v1/products/', {
        token: renewingToken,
        idempotencyKey: randomUUID(),
        body: {
          name: plan.name,
          recurring_interval: plan.interval,
          recurring_interval_count: plan.count,
          ...(plan.trialDays ? { trial_interval: 'day', trial_interval_count: plan.trialDays } : {}),
          prices: [{ amount_type: 'fixed', price_amount: plan.price, price_currency: 'usd' }],
        },
        expected: [201],
      });
      for (let index = 0; index < SUBSCRIBERS_PER_PLAN; index += 1) {
        const customer = await call<{ id: string }>('POST', '/v1/customers/', {
          token: renewingToken,
          idempotencyKey: randomUUID(),
          body: { email: `${plan.name.toLowerCase()}-${index}@example.test` },
          expected: [201],
        });
        await call('POST', `/v1/test-clocks/${clock.body.id}/customers`, {
          token: renewingToken,
          body: { customer_id: customer.body.id },
          expected: [200],
        });
        const checkout = await call<{ id: string; client_secret: string }>('POST', '/v1/checkouts/', {
          token: renewingToken,
          idempotencyKey: randomUUID(),
          body: { products: [planProduct.body.id], customer_id: customer.body.id },
          expected: [201],
        });
        await call('POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
          body: {
            customer_name: 'Renewing buyer',
            customer_billing_address: ADDRESS,
            confirmation_token_id: 'pm_card_visa',
          },
          expected: [200],
        });
        subscribed.push(checkout.body.id);
      }
    }
    const subscriptionCount = PLANS.length * SUBSCRIBERS_PER_PLAN;
    await poll(
      'every subscription checkout to succeed',
      async () =>
        (await db.subscription.count({ where: { organizationId: renewing.id } })) === subscriptionCount
          ? true
          : undefined,
      120_000,
    );
    // Thirteen months and a day on: every cadence renews at least once, the trials convert.
    const advancedTo = new Date(startedAt);
    advancedTo.setUTCMonth(advancedTo.getUTCMonth() + 13);
    advancedTo.setUTCDate(advancedTo.getUTCDate() + 1);

    const faults: string[] = [];
    const confirmed: string[] = [];
    const fault = async (label: string, work: () => Promise<void>) => {
      faults.push(`${label} after ${confirmed.length} confirmations`);
      await work();
    };
    const schedule = [
      {
        at: CHECKOUTS / 4,
        run: () =>
          fault('SIGKILL api-a', async () => {
            const api = replicas.find((replica) => replica.name === 'api-a')!;
            await kill(api);
            await new Promise((resolve) => setTimeout(resolve, 2000));
            start(api);
          }),
      },
      {
        at: CHECKOUTS / 2,
        run: () =>
          fault('clock advanced, then SIGKILL worker-a', async () => {
            // The renewals and trial conversions start on both workers; one dies among them.
            for (const clock of clocks) {
              // Keyed: a retry after a lost answer must not ask to advance to where it already is.
              await call('POST', `/v1/test-clocks/${clock}/advance`, {
                token: renewingToken,
                idempotencyKey: `advance-${clock}`,
                body: { frozen_time: advancedTo.toISOString() },
                expected: [202],
              });
            }
            await new Promise((resolve) => setTimeout(resolve, 1000));
            const worker = replicas.find((replica) => replica.name === 'worker-a')!;
            await kill(worker);
            await new Promise((resolve) => setTimeout(resolve, 2000));
            start(worker);
          }),
      },
      {
        at: (CHECKOUTS * 3) / 4,
        run: () =>
          fault('PostgreSQL restart', async () => {
            await postgres.stop();
            postgres = await startPostgres();
          }),
      },
    ];
    const faultsDone: Promise<void>[] = [];
    const afterConfirmation = (checkoutId: string) => {
      confirmed.push(checkoutId);
      while (schedule[0] && confirmed.length >= schedule[0].at) faultsDone.push(schedule.shift()!.run());
    };

    const buy = async (index: number) => {
      const checkout = await call<{ id: string; client_secret: string }>('POST', '/v1/checkouts/', {
        token,
        idempotencyKey: randomUUID(),
        body: { products: [product.body.id] },
        expected: [201],
      });
      const clientPath = `/v1/checkouts/client/${checkout.body.client_secret}`;
      // A confirmation whose answer was lost may still have gone through: a buyer's page looks
      // at the checkout before pressing pay again.
      for (;;) {
        const answer = await call<{ status: string }>('POST', `${clientPath}/confirm`, {
          body: {
            customer_email: `buyer-${index}@example.test`,
            customer_billing_address: ADDRESS,
            confirmation_token_id: 'pm_card_visa',
          },
          expected: [200, 403],
        });
        if (answer.status === 200) break;
        const current = await call<{ status: string }>('GET', clientPath, { expected: [200] });
        if (current.body.status !== 'open') break;
      }
      afterConfirmation(checkout.body.id);
    };

    const refunded = new Set<string>();
    const refund = async () => {
      while (refunded.size < REFUNDS) {
        // The test's own reads go through PostgreSQL's restart too: an empty look is tried again.
        const paid = await db.order
          .findMany({
            where: { organizationId: organization.id, status: 'paid', id: { notIn: [...refunded] } },
            take: REFUNDS - refunded.size,
          })
          .catch(() => []);
        for (const order of paid) {
          refunded.add(order.id);
          await call('POST', '/v1/refunds/', {
            token,
            idempotencyKey: `refund-${order.id}`,
            // Half of each order: a refund made twice would not be stopped by the order's balance.
            body: { order_id: order.id, reason: 'customer_request', amount: PRICE / 2 },
            // Polar answers a refund with 200.
            expected: [200],
          });
        }
        if (paid.length === 0) await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };

    const started = Date.now();
    let next = 0;
    const buyers = Array.from({ length: BUYERS_AT_ONCE }, async () => {
      while (next < CHECKOUTS) await buy(next++);
    });
    await Promise.all([...buyers, refund()]);
    await Promise.all(faultsDone);
    const drivenMs = Date.now() - started;

    // Everything set off settles: checkouts paid, refunds done, every webhook event delivered.
    // A confirmation committed just before its API was killed never reached its workflow; the
    // reconcile-checkouts schedule wakes it once it is 15 seconds old. The schedule runs every five
    // minutes: it is triggered here as an operator would, so the test need not wait for its tick.
    let reconcileTriggers = 0;
    let lastTriggerMs = Date.now();
    await poll(
      'every confirmed checkout to succeed',
      async () => {
        const succeeded = await db.checkout.count({
          where: { organizationId: organization.id, status: 'succeeded' },
        });
        if (succeeded === CHECKOUTS) return true;
        if (Date.now() - lastTriggerMs > 10_000) {
          lastTriggerMs = Date.now();
          reconcileTriggers += 1;
          await temporal.schedule
            .getHandle(reconcileCheckoutsScheduleId(taskQueues(processEnv.TEMPORAL_TASK_QUEUE!).main))
            .trigger();
        }
        return undefined;
      },
      240_000,
    );
    await poll(
      'every refund to succeed',
      async () => {
        const pending = await db.refund.count({
          where: { organizationId: organization.id, status: { not: 'succeeded' } },
        });
        return pending === 0 ? true : undefined;
      },
      120_000,
    );
    await poll(
      'every webhook event to be delivered',
      async () => {
        const undelivered = await db.webhookEvent.count({
          where: { organizationId: organization.id, status: { not: 'succeeded' } },
        });
        const made = await db.webhookEvent.count({ where: { organizationId: organization.id } });
        return undelivered === 0 && made >= CHECKOUTS * 2 + REFUNDS * 2 ? true : undefined;
      },
      240_000,
    );
    await poll(
      'the test clocks to catch up (every renewal made)',
      async () => {
        for (const clock of clocks) {
          const current = await call<{ status: string }>('GET', `/v1/test-clocks/${clock}`, {
            token: renewingToken,
            expected: [200],
          });
          if (current.body.status !== 'ready') return undefined;
        }
        return true;
      },
      240_000,
    );
    const settledMs = Date.now() - started;

    // Orders and charges: one order per checkout, one successful charge per order, for its total.
    const checkouts = await db.checkout.findMany({
      where: { organizationId: organization.id, status: 'succeeded' },
    });
    expect(new Set(checkouts.map((checkout) => checkout.id))).toEqual(new Set(confirmed));
    // A create retried after the API died mid-request may leave an open checkout nobody pays.
    const unpaid = await db.checkout.count({
      where: { organizationId: organization.id, status: { not: 'succeeded' } },
    });
    const orders = await db.order.findMany({ where: { organizationId: organization.id } });
    expect(orders).toHaveLength(CHECKOUTS);
    expect(new Set(orders.map((order) => order.checkoutId)).size).toBe(CHECKOUTS);
    const totals = new Map(orders.map((order) => [order.checkoutId, order.totalAmount]));
    // The checkouts' charges (the renewing seller's are counted below).
    const renewingCheckouts = new Set(subscribed);
    const payments = (await db.sandboxPayment.findMany()).filter(
      (payment) =>
        !payment.idempotencyKey.startsWith('subscription:') &&
        !renewingCheckouts.has((payment.metadata as { checkout_id?: string }).checkout_id ?? ''),
    );
    const paymentsByCheckout = new Map<string, number>();
    for (const payment of payments) {
      const checkoutId = (payment.metadata as { checkout_id?: string }).checkout_id ?? 'none';
      expect(payment).toMatchObject({ status: 'succeeded', amount: totals.get(checkoutId) });
      paymentsByCheckout.set(checkoutId, (paymentsByCheckout.get(checkoutId) ?? 0) + 1);
    }
    expect([...paymentsByCheckout.values()]).toEqual(Array.from({ length: CHECKOUTS }, () => 1));
    expect(new Set(paymentsByCheckout.keys())).toEqual(new Set(checkouts.map((checkout) => checkout.id)));

    // Refunds: one per requested order, each with exactly one processor refund.
    const refunds = await db.refund.findMany({ where: { organizationId: organization.id } });
    expect(refunds.map((row) => row.orderId).sort()).toEqual([...refunded].sort());
    const processorRefunds = await db.sandboxRefund.findMany();
    expect(processorRefunds).toHaveLength(REFUNDS);
    expect(new Set(processorRefunds.map((row) => row.paymentId)).size).toBe(REFUNDS);

    // Webhooks: one event per change, each received; a redelivery carries the same webhook-id.
    const events = await db.webhookEvent.findMany({ where: { organizationId: organization.id } });
    const perChange = new Map<string, number>();
    for (const event of events) {
      const key = `${event.type} ${event.resourceId}`;
      perChange.set(key, (perChange.get(key) ?? 0) + 1);
    }
    expect([...perChange.entries()].filter(([, count]) => count > 1)).toEqual([]);
    const countOf = (type: string) => events.filter((event) => event.type === type).length;
    expect(EVENTS.map((type) => [type, countOf(type)])).toEqual([
      ['order.created', CHECKOUTS],
      ['order.paid', CHECKOUTS],
      ['order.refunded', REFUNDS],
      ['refund.created', REFUNDS],
    ]);
    const receivedIds = receiver.received.map((request) => request.headers['webhook-id']);
    const missing = events.filter((event) => !receivedIds.includes(event.id));
    expect(missing).toEqual([]);
    // A worker killed after the receiver answered but before the attempt was recorded sends the
    // event again on its retry: the same webhook-id and body, which receivers drop as a repeat.
    const bodies = new Map<string, Set<string>>();
    for (const request of receiver.received) {
      const id = request.headers['webhook-id'] ?? '';
      bodies.set(id, (bodies.get(id) ?? new Set()).add(request.body));
    }
    expect([...bodies.values()].filter((sent) => sent.size > 1)).toEqual([]);
    const receivedTwice = receivedIds.length - bodies.size;
    // What the APIs logged as errors while the faults lasted, each kind once with its count.
    const logged = new Map<string, number>();
    for (const api of apis()) {
      for (const line of readFileSync(path.join(dataDir, 'logs', `${api.name}.log`), 'utf8').split('\n')) {
        if (!line.includes('"level":50')) continue;
        const entry = JSON.parse(line) as { msg?: string; err?: { message?: string; code?: string } };
        const kind = `${entry.msg}: ${entry.err?.code ?? ''} ${entry.err?.message?.slice(0, 160) ?? ''}`;
        logged.set(kind, (logged.get(kind) ?? 0) + 1);
      }
    }
    // An outage is a 503 with Retry-After (or a request in flight, 409): never a 500.
    expect({
      answered500: [...turbulence.keys()].filter((what) => what.endsWith('→ 500')),
      logged: Object.fromEntries(logged),
    }).toEqual({ answered500: [], logged: {} });

    // Renewals: each subscription is in the period its cadence reaches, with one paid order per
    // period and one charge per order.
    const subscriptions = await db.subscription.findMany({
      where: { organizationId: renewing.id },
      include: { product: true },
    });
    expect(subscriptions).toHaveLength(subscriptionCount);
    const cycleOrders = await db.order.findMany({
      where: { organizationId: renewing.id, billingReason: 'subscription_cycle' },
    });
    const renewalCharges = (await db.sandboxPayment.findMany()).filter((payment) =>
      payment.idempotencyKey.startsWith('subscription:'),
    );
    for (const subscription of subscriptions) {
      const { periods, price } = PLANS.find((plan) => plan.name === subscription.product.name)!;
      const keys = Array.from(
        { length: periods },
        (_, index) => `subscription:${subscription.id}:cycle:${index + 1}`,
      );
      expect({
        id: subscription.id,
        index: subscription.currentPeriodIndex,
        status: subscription.status,
      }).toEqual({
        id: subscription.id,
        index: periods,
        status: 'active',
      });
      const orders = cycleOrders.filter((order) => order.subscriptionId === subscription.id);
      expect(orders.map((order) => [order.requestKey, order.status, order.totalAmount]).sort()).toEqual(
        keys.map((key) => [key, 'paid', price]).sort(),
      );
      const charges = renewalCharges.filter((charge) =>
        charge.idempotencyKey.startsWith(`subscription:${subscription.id}:`),
      );
      expect(charges.map((charge) => [charge.idempotencyKey, charge.status, charge.amount]).sort()).toEqual(
        keys.map((key) => [`${key}:attempt:1`, 'succeeded', price]).sort(),
      );
    }
    const renewals = cycleOrders.length;

    expect(faults).toHaveLength(3);
    console.log(
      [
        `scale-out: ${CHECKOUTS} checkouts (${BUYERS_AT_ONCE} buyers at once) and ${REFUNDS} refunds over two APIs and two workers`,
        `  faults: ${faults.join('; ')}`,
        `  driven in ${(drivenMs / 1000).toFixed(1)} s, settled in ${(settledMs / 1000).toFixed(1)} s (reconcile-checkouts triggered ${reconcileTriggers} times)`,
        `  unpaid checkouts left by retried creates ${unpaid}; orders ${orders.length}, charges ${payments.length}, refunds ${refunds.length}, processor refunds ${processorRefunds.length}`,
        `  renewals on the test clock: ${subscriptionCount} subscriptions (${PLANS.map((plan) => plan.name).join(', ')}), ${renewals} renewal orders, ${renewalCharges.length} renewal charges`,
        `  webhook events ${events.length}, requests received ${receivedIds.length} (same webhook-id again: ${receivedTwice})`,
        `  what clients met and retried: ${JSON.stringify(Object.fromEntries(turbulence))}`,
      ].join('\n'),
    );
  }, 900_000);
});
