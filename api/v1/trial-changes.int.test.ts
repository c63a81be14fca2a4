import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

type Subscription = {
  id: string;
  status: string;
  trial_start: string | null;
  trial_end: string | null;
  current_period_start: string;
  current_period_end: string;
  ends_at: string | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;

// `subscriptions.update` with `trial_end` over a real socket, in the sandbox, with the worker
// running: a trial moved later, ended now (the first month charged at once), a trial given to an
// active plan after its period, and Polar's refusals.
describe('subscriptions.update with trial_end', () => {
  const env = useTestStack();

  async function seller() {
    const organization = await createOrganization(env.database.db, { allowMultipleSubscriptions: true });
    const token = await createAccessToken(env.database.db, organization.id);
    const call = (method: string, path: string, body?: unknown) =>
      callV1(env.stack.baseUrl, token, method, path, body);
    const product = async (trial: boolean) => {
      const created = await call('POST', '/products/', {
        name: trial ? 'Pro' : 'Basic',
        recurring_interval: 'month',
        ...(trial ? { trial_interval: 'day', trial_interval_count: 14 } : {}),
        prices: [{ amount_type: 'fixed', price_amount: 2000, price_currency: 'usd' }],
      });
      expect(created.status).toBe(201);
      return (created.body as { id: string }).id;
    };
    return { call, product };
  }

  type Call = Awaited<ReturnType<typeof seller>>['call'];

  /** Buys `productId` in the sandbox with a test card; answers the subscription. */
  async function subscribe(call: Call, productId: string, email: string): Promise<Subscription> {
    const checkout = (await call('POST', '/checkouts/', { products: [productId] })).body as {
      id: string;
      client_secret: string;
    };
    const confirmed = await fetch(
      `${env.stack.baseUrl}/v1/checkouts/client/${encodeURIComponent(checkout.client_secret)}/confirm`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          customer_email: email,
          customer_name: 'Ada Lovelace',
          customer_billing_address: {
            country: 'DE',
            city: 'Berlin',
            postal_code: '10117',
            line1: 'Street 1',
          },
          confirmation_token_id: 'pm_card_visa',
        }),
      },
    );
    expect(confirmed.status).toBe(200);
    const orders = await eventually(
      async () =>
        (await call('GET', `/orders/?checkout_id=${checkout.id}`)).body as {
          items: { subscription_id: string }[];
        },
      (answer) => answer.items.length === 1,
    );
    return (await call('GET', `/subscriptions/${orders.items[0]!.subscription_id}`)).body as Subscription;
  }

  const patch = (call: Call, id: string, body: unknown) => call('PATCH', `/subscriptions/${id}`, body);
  const cycleOrders = async (call: Call, id: string) =>
    (
      (await call('GET', `/orders/?subscription_id=${id}`)).body as {
        items: { billing_reason: string; status: string; total_amount: number }[];
      }
    ).items.filter((order) => order.billing_reason === 'subscription_cycle');

  it('moves a trial later, then ends it now: the first month is charged at once and the plan is active', async () => {
    const { call, product } = await seller();
    const trialing = await subscribe(call, await product(true), 'ada@example.test');
    expect(trialing.status).toBe('trialing');

    const later = new Date(Date.parse(trialing.trial_end!) + 7 * DAY_MS).toISOString();
    const moved = await patch(call, trialing.id, { trial_end: later });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ status: 'trialing', trial_end: later, current_period_end: later });

    const ended = await patch(call, trialing.id, { trial_end: 'now' });
    expect(ended.status).toBe(200);
    const endedAt = Date.parse((ended.body as unknown as Subscription).trial_end!);
    expect(Math.abs(endedAt - Date.now())).toBeLessThan(60_000);
    // The workflow converts it at once: the first period starts at the trial's end and is charged.
    const active = await eventually(
      async () => (await call('GET', `/subscriptions/${trialing.id}`)).body as Subscription,
      (subscription) => subscription.status === 'active',
    );
    expect(Date.parse(active.current_period_start)).toBe(endedAt);
    // The period starts before its charge settles: the order is pending until the payment lands.
    const orders = await eventually(
      () => cycleOrders(call, trialing.id),
      (found) => found.length > 0 && found.every((order) => order.status !== 'pending'),
    );
    expect(orders).toEqual([expect.objectContaining({ status: 'paid', total_amount: 2000 })]);
    // Ended, there is no trial to end again.
    const again = await patch(call, trialing.id, { trial_end: 'now' });
    expect(again.status).toBe(422);
    expect(again.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'trial_end'],
        msg: 'The subscription is not currently trialing.',
      }),
    ]);
  });

  it('gives an active plan a trial after its period, refusing one that would cut the period short', async () => {
    const { call, product } = await seller();
    const active = await subscribe(call, await product(false), 'bo@example.test');
    expect(active.status).toBe('active');
    const periodEnd = Date.parse(active.current_period_end);

    const tooEarly = await patch(call, active.id, { trial_end: new Date(periodEnd - DAY_MS).toISOString() });
    expect(tooEarly.status).toBe(422);
    expect(tooEarly.body.detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'trial_end'],
        msg: 'Trial end must be after the current period end.',
      }),
    ]);
    const until = new Date(periodEnd + 10 * DAY_MS).toISOString();
    const given = await patch(call, active.id, { trial_end: until });
    expect(given.status).toBe(200);
    expect(given.body).toMatchObject({
      status: 'trialing',
      trial_start: active.current_period_end,
      trial_end: until,
      current_period_start: active.current_period_start,
      current_period_end: until,
    });
    // Nothing more is charged than the first month.
    expect(await cycleOrders(call, active.id)).toHaveLength(0);
  });

  it('refuses what Polar refuses, in its words, changing nothing', async () => {
    const { call, product } = await seller();
    const trialing = await subscribe(call, await product(true), 'cy@example.test');
    const past = await patch(call, trialing.id, { trial_end: new Date(Date.now() - DAY_MS).toISOString() });
    expect(past.status).toBe(422);
    expect(past.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'trial_end'], msg: 'Trial end must be in the future.' }),
    ]);
    expect((await patch(call, trialing.id, { trial_end: 'tomorrow' })).status).toBe(422);
    const combined = await patch(call, trialing.id, { discount_id: null, trial_end: 'now' });
    expect(combined.status).toBe(422);

    const revoked = await call('DELETE', `/subscriptions/${trialing.id}`);
    expect(revoked.status).toBe(200);
    const inactive = await patch(call, trialing.id, { trial_end: 'now' });
    expect(inactive.status).toBe(403);
    expect(inactive.body.error).toBe('InactiveSubscription');
    const after = (await call('GET', `/subscriptions/${trialing.id}`)).body as Subscription;
    expect(after.trial_end).toBe(trialing.trial_end);
    // Another organization's subscription is not found.
    const other = await seller();
    expect((await patch(other.call, trialing.id, { trial_end: 'now' })).status).toBe(404);
  });
});
