import { describe, expect, it } from '@jest/globals';
import { eventually } from '../../test/eventually.js';
import { createAccessToken, createOrganization } from '../../test/factories.js';
import { callV1 } from '../../test/http.js';
import { useTestStack } from '../../test/stack.js';

// Trialing plans in the metrics, over a real socket with the worker running, on a test clock: a
// plan bought with a trial counts in trial MRR and not in MRR until its trial ends, then the other
// way round; one canceled during its trial leaves the committed trial figure at once and never
// enters MRR. Active subscriptions count both from their start.

type Period = {
  timestamp: string;
  active_subscriptions: number;
  committed_subscriptions: number;
  monthly_recurring_revenue: number;
  committed_monthly_recurring_revenue: number;
  trial_monthly_recurring_revenue: number;
  trial_committed_monthly_recurring_revenue: number;
  annual_recurring_revenue: number;
};
type Metrics = { periods: Period[]; totals: Omit<Period, 'timestamp'> };

describe('GET /v1/metrics/ with trialing plans', () => {
  const env = useTestStack();

  async function sellerOnClock(frozenTime: string) {
    const organization = await createOrganization(env.database.db, { allowMultipleSubscriptions: true });
    const token = await createAccessToken(env.database.db, organization.id);
    const call = async (method: string, path: string, body?: unknown) => {
      const answer = await callV1(env.stack.baseUrl, token, method, path, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    };
    const clock = (await call('POST', '/test-clocks', { name: 'Trials', frozen_time: frozenTime })) as {
      id: string;
    };
    const customer = (await call('POST', '/customers/', {
      email: `ada-${clock.id}@example.test`,
      name: 'Ada Lovelace',
    })) as { id: string };
    await call('POST', `/test-clocks/${clock.id}/customers`, { customer_id: customer.id });
    return {
      call,
      async advanceTo(time: string) {
        await call('POST', `/test-clocks/${clock.id}/advance`, { frozen_time: time });
        await eventually(
          async () => (await call('GET', `/test-clocks/${clock.id}`)) as { status: string },
          (value) => value.status === 'ready',
          60_000,
        );
      },
      /** A product with a 14-day trial. */
      async product(interval: 'month' | 'year', amount: number) {
        const created = (await call('POST', '/products/', {
          name: `Pro ${interval}ly`,
          recurring_interval: interval,
          trial_interval: 'day',
          trial_interval_count: 14,
          prices: [{ amount_type: 'fixed', price_amount: amount, price_currency: 'usd' }],
        })) as { id: string };
        return created.id;
      },
      /** The customer's hosted checkout with a test card; answers the subscription's id. */
      async buy(productId: string) {
        const checkout = (await call('POST', '/checkouts/', {
          products: [productId],
          customer_id: customer.id,
        })) as { id: string; client_secret: string };
        const confirmed = await fetch(
          `${env.stack.baseUrl}/v1/checkouts/client/${encodeURIComponent(checkout.client_secret)}/confirm`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
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
        const paid = await eventually(
          async () =>
            (await call('GET', `/checkouts/${checkout.id}`)) as { status: string; subscription_id: string },
          (value) => value.status === 'succeeded' && Boolean(value.subscription_id),
        );
        return paid.subscription_id;
      },
      subscription: async (id: string) =>
        (await call('GET', `/subscriptions/${id}`)) as {
          status: string;
          trial_end: string;
          ended_at: string;
        },
      async metrics(start: string, end: string) {
        const query = new URLSearchParams({
          start_date: start,
          end_date: end,
          interval: 'day',
          timezone: 'UTC',
        });
        return (await call('GET', `/metrics/?${query.toString()}`)) as unknown as Metrics;
      },
    };
  }

  const column = (answer: Metrics, figure: keyof Omit<Period, 'timestamp'>) =>
    answer.periods.map((period) => period[figure]);

  it('counts a trial in trial MRR until it ends, then in MRR; a plan canceled in its trial never in MRR', async () => {
    const seller = await sellerOnClock('2026-11-28T10:00:00.000Z');
    // $20.00 a month, and $120.00 a year (1000 a month), both starting with 14 free days.
    const monthly = await seller.buy(await seller.product('month', 2000));
    const yearly = await seller.buy(await seller.product('year', 12_000));
    expect(await seller.subscription(monthly)).toMatchObject({
      status: 'trialing',
      trial_end: '2026-12-12T10:00:00.000Z',
    });

    // The yearly plan is canceled during its trial, to end at the trial's end.
    await seller.advanceTo('2026-12-01T10:00:00.000Z');
    await seller.call('PATCH', `/subscriptions/${yearly}`, { cancel_at_period_end: true });

    const during = await seller.metrics('2026-11-27', '2026-12-01');
    expect(column(during, 'active_subscriptions')).toEqual([0, 2, 2, 2, 2]);
    expect(column(during, 'committed_subscriptions')).toEqual([0, 2, 2, 2, 1]);
    expect(column(during, 'trial_monthly_recurring_revenue')).toEqual([0, 3000, 3000, 3000, 3000]);
    expect(column(during, 'trial_committed_monthly_recurring_revenue')).toEqual([0, 3000, 3000, 3000, 2000]);
    expect(column(during, 'monthly_recurring_revenue')).toEqual([0, 0, 0, 0, 0]);
    expect(column(during, 'committed_monthly_recurring_revenue')).toEqual([0, 0, 0, 0, 0]);
    expect(column(during, 'annual_recurring_revenue')).toEqual([0, 0, 0, 0, 0]);

    // Past both trials' end: the monthly plan converted and paid, the yearly one ended unpaid.
    await seller.advanceTo('2026-12-13T10:00:00.000Z');
    await eventually(
      async () => [(await seller.subscription(monthly)).status, (await seller.subscription(yearly)).status],
      (statuses) => statuses[0] === 'active' && statuses[1] === 'canceled',
    );
    expect((await seller.subscription(yearly)).ended_at).toBe('2026-12-12T10:00:00.000Z');

    const after = await seller.metrics('2026-11-27', '2026-12-13');
    expect(column(after, 'active_subscriptions').slice(-3)).toEqual([2, 1, 1]);
    expect(column(after, 'trial_monthly_recurring_revenue').slice(-3)).toEqual([3000, 0, 0]);
    expect(column(after, 'trial_committed_monthly_recurring_revenue').slice(-3)).toEqual([2000, 0, 0]);
    // The yearly plan's 1000 a month is in no period's MRR: it ended when its trial did.
    expect(column(after, 'monthly_recurring_revenue')).toEqual([...Array<number>(15).fill(0), 2000, 2000]);
    expect(column(after, 'committed_monthly_recurring_revenue').slice(-3)).toEqual([0, 2000, 2000]);
    expect(after.totals).toMatchObject({
      active_subscriptions: 1,
      committed_subscriptions: 1,
      monthly_recurring_revenue: 2000,
      annual_recurring_revenue: 24_000,
      trial_monthly_recurring_revenue: 0,
      trial_committed_monthly_recurring_revenue: 0,
    });
    // The range's end during the trials: the totals are its state then.
    expect(during.totals).toMatchObject({
      monthly_recurring_revenue: 0,
      trial_monthly_recurring_revenue: 3000,
      trial_committed_monthly_recurring_revenue: 2000,
    });
  }, 180_000);
});
