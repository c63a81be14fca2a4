import { describe, expect, it } from '@jest/globals';
import type { ProductPrice } from '../../domain/products/schemas';
import { formatMoney } from '../money/format';
import { formatDate } from '../components';
import {
  describePreviewPrice,
  describeRenewal,
  describeSubscriptionPrice,
  describeSubscriptionStatus,
  formatPlanAmount,
  isResumable,
  monthlyAmount,
} from './format';

const running = { status: 'active' as const, ended_at: null };

describe('monthlyAmount', () => {
  it('counts a monthly plan as it is and a yearly one as a twelfth, rounded to the cent', () => {
    expect(monthlyAmount({ ...running, amount: 1000, recurring_interval: 'month' })).toBe(1000);
    expect(monthlyAmount({ ...running, amount: 10_000, recurring_interval: 'year' })).toBe(833);
    expect(monthlyAmount({ ...running, amount: 10_010, recurring_interval: 'year' })).toBe(834);
  });

  it('counts nothing for a plan that has ended', () => {
    expect(
      monthlyAmount({
        status: 'canceled',
        ended_at: '2026-01-01T00:00:00Z',
        amount: 1000,
        recurring_interval: 'month',
      }),
    ).toBe(0);
  });
});

describe('describeRenewal', () => {
  const base = {
    ...running,
    ends_at: null,
    cancel_at_period_end: false,
    current_period_end: '2026-03-15T12:00:00Z',
  };

  it('says when a running plan renews, when one set to cancel ends, and that an ended one ended', () => {
    expect(describeRenewal(base)).not.toMatch(/^End/);
    expect(
      describeRenewal({ ...base, cancel_at_period_end: true, ends_at: base.current_period_end }),
    ).toMatch(/^Ends /);
    expect(describeRenewal({ ...base, status: 'canceled', ended_at: '2026-02-01T00:00:00Z' })).toMatch(
      /^Ended /,
    );
  });
});

describe('isResumable', () => {
  it('offers to resume only a plan set to cancel that is still active', () => {
    expect(isResumable({ ...running, cancel_at_period_end: true })).toBe(true);
    expect(isResumable({ ...running, cancel_at_period_end: false })).toBe(false);
    expect(isResumable({ status: 'past_due', ended_at: null, cancel_at_period_end: true })).toBe(false);
  });
});

describe('formatPlanAmount', () => {
  it('gives the amount per interval', () => {
    expect(formatPlanAmount(1000, 'usd', 'month')).toMatch(/10\.00 \/ month$/);
    expect(formatPlanAmount(12_000, 'usd', 'year')).toMatch(/120\.00 \/ year$/);
  });
});

describe('describeSubscriptionPrice', () => {
  const usd = (amount: number) => formatMoney(amount, 'usd');
  const plan = {
    amount: 1600,
    currency: 'usd',
    recurring_interval: 'month' as const,
    prices: [] as ProductPrice[],
  };

  it('says a repeating discount’s end and the full price after it, from the API’s price schedule', () => {
    const price = describeSubscriptionPrice({
      ...plan,
      price_schedule: [
        { amount: 1600, periods: 2, starts_at: '2026-02-28T10:00:00Z', ends_at: '2026-04-30T10:00:00Z' },
        { amount: 2000, periods: null, starts_at: '2026-04-30T10:00:00Z', ends_at: null },
      ],
    });
    expect(price).toBe(
      `${usd(1600)} / month until ${formatDate('2026-04-30T10:00:00Z')}, then ${usd(2000)} / month`,
    );
  });

  it('says a free trial is free until its end, then the plan', () => {
    const price = describeSubscriptionPrice({
      ...plan,
      amount: 2000,
      price_schedule: [
        {
          amount: 0,
          periods: 1,
          starts_at: '2026-11-28T10:00:00Z',
          ends_at: '2026-12-12T10:00:00Z',
          trial: true,
        },
        { amount: 2000, periods: null, starts_at: '2026-12-12T10:00:00Z', ends_at: null },
      ],
    });
    expect(price).toBe(`free until ${formatDate('2026-12-12T10:00:00Z')}, then ${usd(2000)} / month`);
  });

  it('adds usage when the plan has a metered price, and shows an ended plan’s amount', () => {
    const metered = {
      created_at: '2026-01-31T10:00:00Z',
      modified_at: null,
      id: '00000000-0000-4000-8000-000000000003',
      is_archived: false,
      product_id: '00000000-0000-4000-8000-000000000001',
      type: 'recurring',
      recurring_interval: 'month',
      source: 'catalog',
      tax_behavior: null,
      amount_type: 'metered_unit',
      price_currency: 'usd',
      unit_amount: '0.2',
      cap_amount: null,
      meter_id: '00000000-0000-4000-8000-000000000004',
      meter: {
        id: '00000000-0000-4000-8000-000000000004',
        name: 'Tokens',
        unit: 'scalar',
        custom_label: null,
        custom_multiplier: null,
      },
    } as const satisfies ProductPrice;
    const schedule = [{ amount: 1000, periods: null, starts_at: '2026-02-28T10:00:00Z', ends_at: null }];
    expect(describeSubscriptionPrice({ ...plan, prices: [metered], price_schedule: schedule })).toBe(
      `${usd(1000)} / month plus usage`,
    );
    expect(describeSubscriptionPrice({ ...plan, price_schedule: [] })).toBe(
      formatPlanAmount(1600, 'usd', 'month'),
    );
  });
});

describe('describePreviewPrice', () => {
  it('says the new plan’s price as its renewals will charge it', () => {
    const preview = { new_amount: 3600, currency: 'usd', recurring_interval: 'month' as const };
    expect(
      describePreviewPrice({
        ...preview,
        price_schedule: [
          { amount: 3600, periods: 1, starts_at: '2026-01-31T10:00:00Z', ends_at: '2026-02-28T10:00:00Z' },
          { amount: 4500, periods: null, starts_at: '2026-02-28T10:00:00Z', ends_at: null },
        ],
      }),
    ).toBe(
      `${formatMoney(3600, 'usd')} until ${formatDate('2026-02-28T10:00:00Z')}, then ${formatMoney(4500, 'usd')} / month`,
    );
  });
});

describe('describeSubscriptionStatus', () => {
  const base = {
    ...running,
    ends_at: null,
    cancel_at_period_end: false,
    current_period_end: '2026-03-15T12:00:00Z',
  };

  it('says "Ends on <date>" in amber for a plan set to cancel until it has ended, never "Canceled"', () => {
    const ending = { ...base, cancel_at_period_end: true, ends_at: base.current_period_end };
    expect(describeSubscriptionStatus(ending)).toEqual([
      `Ends on ${formatDate(base.current_period_end)}`,
      'warn',
    ]);
    expect(describeSubscriptionStatus(base)).toEqual(['Active', 'ok']);
    expect(
      describeSubscriptionStatus({ ...ending, status: 'canceled', ended_at: '2026-03-15T12:00:00Z' }),
    ).toEqual(['Canceled', 'neutral']);
  });
});
