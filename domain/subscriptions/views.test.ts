import { describe, expect, it } from '@jest/globals';
import type { MeteredUsage, PricedRenewal } from './renewal-pricing.js';
import { cycleBill, type BillingLine } from './rules.js';
import { priceScheduleOf, upcomingInvoiceView } from './views.js';

const PRO_PRICE = '00000000-0000-4000-8000-0000000000a1';
const CALLS_PRICE = '00000000-0000-4000-8000-0000000000a2';
const DISCOUNT = '00000000-0000-4000-8000-0000000000d1';

const row = {
  id: '00000000-0000-4000-8000-000000000051',
  currency: 'usd',
  currentPeriodStart: new Date('2026-03-01T00:00:00Z'),
  currentPeriodEnd: new Date('2026-04-01T00:00:00Z'),
  cancelAtPeriodEnd: false,
  discountId: DISCOUNT,
};

function calls(amount: number, units = '1200', credited = '100'): MeteredUsage {
  return {
    line: { label: 'Calls', amount, proration: false, productPriceId: CALLS_PRICE },
    meter: { id: '00000000-0000-4000-8000-0000000000e1', name: 'Calls' },
    units,
    creditedUnits: credited,
    unitAmount: '0.35',
    capAmount: 300,
    charge: { billableUnits: '1100', amount, capped: amount === 300 },
  };
}

function priced(input: {
  fees?: BillingLine[];
  discount?: number;
  usage?: MeteredUsage[];
  pending?: BillingLine[];
  taxAmount?: number;
}): PricedRenewal {
  const usage = input.usage ?? [];
  return {
    plan: {
      index: 1,
      start: new Date('2026-04-01T00:00:00Z'),
      end: new Date('2026-05-01T00:00:00Z'),
      bill: cycleBill({
        fees: input.fees ?? [],
        feeDiscount: input.discount ?? 0,
        pending: [...usage.map((each) => each.line), ...(input.pending ?? [])],
      }),
      keepsDiscount: (input.discount ?? 0) > 0,
      pendingIds: [],
    },
    usage,
    taxAmount: input.taxAmount ?? 0,
  };
}

const fee = { label: 'Pro', amount: 2000, proration: false, productPriceId: PRO_PRICE };
const credit = { label: 'Unused time on Max', amount: -500, proration: true, productPriceId: null };

describe('upcomingInvoiceView', () => {
  it('writes the renewal order’s lines as it will: the fee for the next period, usage for this one, prorations', () => {
    const view = upcomingInvoiceView(
      row,
      priced({ fees: [fee], discount: 400, usage: [calls(300)], pending: [credit], taxAmount: 266 }),
    );
    expect(view).toMatchObject({
      billed_at: '2026-04-01T00:00:00.000Z',
      ends_subscription: false,
      period_start: '2026-03-01T00:00:00.000Z',
      period_end: '2026-04-01T00:00:00.000Z',
      subtotal_amount: 1800,
      discount_amount: 400,
      discount_id: DISCOUNT,
      net_amount: 1400,
      tax_amount: 266,
      total_amount: 1666,
      carried_credit_amount: 0,
    });
    expect(view.lines.map((line) => [line.type, line.amount, line.tax_amount, line.period_start])).toEqual([
      ['fixed', 2000, 231, '2026-04-01T00:00:00.000Z'],
      ['metered', 300, 35, '2026-03-01T00:00:00.000Z'],
      ['proration', -500, 0, null],
    ]);
    const meter = {
      product_price_id: CALLS_PRICE,
      meter_id: '00000000-0000-4000-8000-0000000000e1',
      meter_name: 'Calls',
      consumed_units: 1200,
      credited_units: 100,
      billable_units: 1100,
      unit_amount: '0.35',
      cap_amount: 300,
      capped: true,
      amount: 300,
    };
    expect(view.lines[1]!.meter).toEqual(meter);
    expect(view.meters).toEqual([meter]);
  });

  it('names no discount when it takes nothing off, and lists a metered price that bills nothing among the meters only', () => {
    const view = upcomingInvoiceView(row, priced({ fees: [fee], usage: [calls(0, '50', '100')] }));
    expect(view).toMatchObject({ discount_amount: 0, discount_id: null, total_amount: 2000 });
    expect(view.lines.map((line) => line.type)).toEqual(['fixed']);
    expect(view.meters.map((meter) => [meter.consumed_units, meter.amount])).toEqual([[50, 0]]);
  });

  it('shows the credit carried to the order after it', () => {
    const view = upcomingInvoiceView(row, priced({ fees: [fee], pending: [{ ...credit, amount: -2500 }] }));
    expect(view).toMatchObject({ net_amount: 0, total_amount: 0, carried_credit_amount: 500 });
    expect(view.lines.at(-1)).toMatchObject({
      type: 'proration',
      label: 'Credit carried to the next invoice',
    });
  });

  it('prices the final order of a plan set to cancel, or none when nothing is left to charge', () => {
    const ending = { ...row, cancelAtPeriodEnd: true };
    expect(upcomingInvoiceView(ending, priced({ usage: [calls(300)], taxAmount: 57 }))).toMatchObject({
      billed_at: '2026-04-01T00:00:00.000Z',
      ends_subscription: true,
      total_amount: 357,
    });
    const nothing = upcomingInvoiceView(ending, priced({ usage: [calls(0, '0', '0')] }));
    expect(nothing).toMatchObject({ billed_at: null, ends_subscription: true, lines: [], total_amount: 0 });
    expect(nothing.meters).toHaveLength(1);
  });

  it('bills nothing more once the subscription ended', () => {
    expect(upcomingInvoiceView(row, null)).toEqual({
      subscription_id: row.id,
      currency: 'usd',
      billed_at: null,
      ends_subscription: false,
      period_start: '2026-03-01T00:00:00.000Z',
      period_end: '2026-04-01T00:00:00.000Z',
      lines: [],
      subtotal_amount: 0,
      discount_amount: 0,
      discount_id: null,
      net_amount: 0,
      tax_amount: 0,
      total_amount: 0,
      carried_credit_amount: 0,
      meters: [],
    });
  });
});

describe('priceScheduleOf', () => {
  const trialing = {
    currency: 'usd',
    discount: null,
    discountFirstPeriodStart: null,
    amount: 2000,
    recurringInterval: 'month',
    recurringIntervalCount: 1,
    // The trial is period 0; the paid periods count from its end (trials.ts).
    billingAnchor: new Date('2026-12-12T09:00:00Z'),
    currentPeriodIndex: 0,
    periodIndexBase: 1,
    currentPeriodStart: new Date('2026-11-28T09:00:00Z'),
    trialEnd: new Date('2026-12-12T09:00:00Z'),
    cancelAtPeriodEnd: false,
    endedAt: null,
    status: 'trialing',
    prices: [{ amount: 2000 }],
  };
  const phases = (row: Parameters<typeof priceScheduleOf>[0]) =>
    priceScheduleOf(row).map((phase) => [phase.amount, phase.periods, phase.startsAt.toISOString()]);

  it('bills nothing for a trial, then the plan from its end', () => {
    expect(phases(trialing)).toEqual([
      [0, 1, '2026-11-28T09:00:00.000Z'],
      [2000, null, '2026-12-12T09:00:00.000Z'],
    ]);
  });

  it('a trial set to cancel ends with the trial and bills nothing', () => {
    expect(phases({ ...trialing, cancelAtPeriodEnd: true })).toEqual([[0, 1, '2026-11-28T09:00:00.000Z']]);
  });
});
