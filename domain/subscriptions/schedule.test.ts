import { describe, expect, it } from '@jest/globals';
import { discountAmountFor } from '../prices/discount.js';
import type { DiscountTerms } from '../discounts/rules.js';
import { formatMoney } from '../money/rules.js';
import { addCalendarMonths, discountApplies, periodStart, type RecurringInterval } from './rules.js';
import {
  describePriceSchedule,
  discountOfPeriod,
  nextRenewalAmount,
  priceSchedule,
  type PlanDiscount,
  type PricePhase,
} from './schedule.js';

const anchor = new Date('2026-01-31T10:00:00.000Z');
const months = (count: number) => addCalendarMonths(anchor, count);

const percent = (basisPoints: number, term: Pick<DiscountTerms, 'duration' | 'durationInMonths'>) => ({
  type: 'percentage' as const,
  amount: null,
  currency: null,
  basisPoints,
  ...term,
});
const ONCE = { duration: 'once', durationInMonths: null } as const;
const FOREVER = { duration: 'forever', durationInMonths: null } as const;
const repeating = (count: number) => ({ duration: 'repeating', durationInMonths: count }) as const;

/** A plan of `fees` a period bought at `anchor` (period 0), with the discount from its first period. */
function atPurchase(
  fees: number,
  discount: DiscountTerms | null,
  options: { interval?: RecurringInterval; currency?: string } = {},
) {
  const currency = options.currency ?? 'usd';
  const interval = options.interval ?? 'month';
  const first = discount ? fees - discountAmountFor(discount, fees, currency) : fees;
  return priceSchedule({
    pricing: { fees, currency, discount: discount ? { ...discount, firstPeriodStart: anchor } : null },
    periods: { interval, anchor, index: 0 },
    currentAmount: first,
    renews: true,
  });
}

const usd = { money: (amount: number) => formatMoney(amount, 'usd'), date: (at: Date) => formatDay(at) };
const formatDay = (at: Date) =>
  at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const purchase = (phases: PricePhase[], interval: RecurringInterval = 'month') =>
  describePriceSchedule(phases, interval, usd, { from: 'purchase' });
const current = (phases: PricePhase[], interval: RecurringInterval = 'month') =>
  describePriceSchedule(phases, interval, usd, { from: 'current' });

describe('priceSchedule at the purchase, and its words', () => {
  it('once: the first period discounted, then the full price (the reported $16.00 / month)', () => {
    const phases = atPurchase(2000, percent(2000, ONCE));
    expect(phases).toEqual([
      { amount: 1600, periods: 1, startsAt: anchor, endsAt: months(1) },
      { amount: 2000, periods: null, startsAt: months(1), endsAt: null },
    ]);
    expect(purchase(phases)).toBe('$16.00 today, then $20.00 / month');
  });

  it('repeating 3 months on a monthly plan: three discounted periods', () => {
    const phases = atPurchase(2000, percent(2000, repeating(3)));
    expect(phases).toEqual([
      { amount: 1600, periods: 3, startsAt: anchor, endsAt: months(3) },
      { amount: 2000, periods: null, startsAt: months(3), endsAt: null },
    ]);
    expect(purchase(phases)).toBe('$16.00 / month for 3 months, then $20.00 / month');
  });

  it('repeating on a yearly plan: each period that starts within the months is discounted', () => {
    const threeMonths = atPurchase(20000, percent(2000, repeating(3)), { interval: 'year' });
    expect(threeMonths.map((phase) => [phase.amount, phase.periods])).toEqual([
      [16000, 1],
      [20000, null],
    ]);
    expect(purchase(threeMonths, 'year')).toBe('$160.00 today, then $200.00 / year');
    // 13 months reach into the second year's first day; 24 months cover exactly two years.
    const thirteen = atPurchase(20000, percent(2000, repeating(13)), { interval: 'year' });
    expect(thirteen[0]).toMatchObject({ amount: 16000, periods: 2, endsAt: months(24) });
    const twentyFour = atPurchase(20000, percent(2000, repeating(24)), { interval: 'year' });
    expect(purchase(twentyFour, 'year')).toBe('$160.00 / year for 2 years, then $200.00 / year');
  });

  it('forever: the discounted price for good', () => {
    const phases = atPurchase(2000, percent(2000, FOREVER));
    expect(phases).toEqual([{ amount: 1600, periods: null, startsAt: anchor, endsAt: null }]);
    expect(purchase(phases)).toBe('$16.00 / month');
  });

  it('a fixed-amount discount, capped at the fees', () => {
    const five = { type: 'fixed' as const, amount: 500, currency: 'usd', basisPoints: null, ...ONCE };
    expect(purchase(atPurchase(2000, five))).toBe('$15.00 today, then $20.00 / month');
    const more = { ...five, amount: 5000, ...repeating(2) };
    expect(purchase(atPurchase(2000, more))).toBe('$0.00 / month for 2 months, then $20.00 / month');
  });

  it('no discount: one phase', () => {
    const phases = atPurchase(2000, null);
    expect(phases).toEqual([{ amount: 2000, periods: null, startsAt: anchor, endsAt: null }]);
    expect(purchase(phases)).toBe('$20.00 / month');
  });

  it('a zero-decimal currency (JPY) in its own minor units', () => {
    const phases = atPurchase(2000, percent(2000, ONCE), { currency: 'jpy' });
    expect(phases.map((phase) => phase.amount)).toEqual([1600, 2000]);
    const yen = { money: (amount: number) => formatMoney(amount, 'jpy'), date: formatDay };
    expect(describePriceSchedule(phases, 'month', yen, { from: 'purchase' })).toBe(
      '¥1,600 today, then ¥2,000 / month',
    );
  });

  it('names what comes on top of every amount', () => {
    const phases = atPurchase(2000, percent(2000, ONCE));
    expect(describePriceSchedule(phases, 'month', usd, { from: 'purchase', plus: ['usage'] })).toBe(
      '$16.00 today, then $20.00 / month plus usage',
    );
    expect(describePriceSchedule(phases, 'month', usd, { from: 'purchase', plus: ['tax', 'usage'] })).toBe(
      '$16.00 today, then $20.00 / month plus tax and usage',
    );
    expect(describePriceSchedule([], 'month', usd, { from: 'current' })).toBe('');
  });
});

describe('priceSchedule of a running plan', () => {
  /** A monthly $20 plan bought at `anchor` with 20 % off for 3 months, now in period `index`. */
  const running = (index: number, overrides: { discount?: PlanDiscount | null; renews?: boolean } = {}) =>
    priceSchedule({
      pricing: {
        fees: 2000,
        currency: 'usd',
        discount:
          overrides.discount === undefined
            ? { ...percent(2000, repeating(3)), firstPeriodStart: anchor }
            : overrides.discount,
      },
      periods: { interval: 'month', anchor, index },
      currentAmount: 1600,
      renews: overrides.renews ?? true,
    });

  it('mid-way through a repeating discount: the discounted periods left, until when, then the full price', () => {
    // Period 1 (28 Feb): it and the next one are discounted.
    expect(running(1)).toEqual([
      { amount: 1600, periods: 2, startsAt: months(1), endsAt: months(3) },
      { amount: 2000, periods: null, startsAt: months(3), endsAt: null },
    ]);
    expect(current(running(1))).toBe('$16.00 / month until 30 April 2026, then $20.00 / month');
    // Period 2 (31 Mar), two periods after the discount started: the last discounted one.
    expect(running(2)).toEqual([
      { amount: 1600, periods: 1, startsAt: months(2), endsAt: months(3) },
      { amount: 2000, periods: null, startsAt: months(3), endsAt: null },
    ]);
    expect(current(running(2))).toBe('$16.00 until 30 April 2026, then $20.00 / month');
  });

  it('a discount given for the next period: the current price, the discounted periods, then the full price', () => {
    const fromNext = { ...percent(2000, repeating(3)), firstPeriodStart: months(1) };
    const phases = priceSchedule({
      pricing: { fees: 2000, currency: 'usd', discount: fromNext },
      periods: { interval: 'month', anchor, index: 0 },
      currentAmount: 2000,
      renews: true,
    });
    expect(current(phases)).toBe(
      '$20.00 until 28 February 2026, then $16.00 / month for 3 months, then $20.00 / month',
    );
    const once = { ...fromNext, ...ONCE };
    expect(
      current(
        priceSchedule({
          pricing: { fees: 2000, currency: 'usd', discount: once },
          periods: { interval: 'month', anchor, index: 0 },
          currentAmount: 2000,
          renews: true,
        }),
      ),
    ).toBe('$20.00 until 28 February 2026, then $16.00 for 1 month, then $20.00 / month');
  });

  it('a plan set to cancel: its current period only', () => {
    expect(running(1, { renews: false })).toEqual([
      { amount: 1600, periods: 1, startsAt: months(1), endsAt: months(2) },
    ]);
    expect(nextRenewalAmount(running(1, { renews: false }))).toBeNull();
  });

  it('a discount the seller deleted is no longer applied from the next renewal on', () => {
    expect(running(1, { discount: null })).toEqual([
      { amount: 1600, periods: 1, startsAt: months(1), endsAt: months(2) },
      { amount: 2000, periods: null, startsAt: months(2), endsAt: null },
    ]);
  });

  it('tells the next renewal’s amount', () => {
    expect(nextRenewalAmount(running(1))).toBe(1600);
    expect(nextRenewalAmount(running(2))).toBe(2000);
    expect(nextRenewalAmount(atPurchase(2000, percent(2000, FOREVER)))).toBe(1600);
    expect(nextRenewalAmount([])).toBeNull();
  });
});

describe('priceSchedule against the renewal rule', () => {
  /** Every period's amount the schedule says, for `count` periods from the current one. */
  function expand(phases: PricePhase[], count: number): number[] {
    return phases.flatMap((phase) => Array(phase.periods ?? count).fill(phase.amount)).slice(0, count);
  }

  const terms: (DiscountTerms | null)[] = [
    null,
    percent(2000, ONCE),
    percent(2500, FOREVER),
    ...[1, 2, 3, 11, 12, 13, 14, 25].map((count) => percent(1000, repeating(count))),
    { type: 'fixed', amount: 700, currency: 'usd', basisPoints: null, ...repeating(2) },
  ];

  it('says, period after period, what discountApplies and discountAmountFor bill', () => {
    const count = 40;
    const mismatches: string[] = [];
    let checked = 0;
    for (let day = 0; day < 731; day += 29) {
      const planAnchor = new Date(Date.UTC(2023, 0, 1 + day, 7, 30));
      for (const interval of ['month', 'year'] as const) {
        for (const term of terms) {
          for (const index of [0, 1, 4]) {
            // The discount from the plan's first period, from the current one, or from the next.
            for (const firstIndex of [0, index, index + 1]) {
              const first = periodStart(planAnchor, interval, firstIndex);
              const fees = 2000;
              const pricing = {
                fees,
                currency: 'usd',
                discount: term ? { ...term, firstPeriodStart: first } : null,
              };
              const phases = priceSchedule({
                pricing,
                periods: { interval, anchor: planAnchor, index },
                currentAmount: 1234,
                renews: true,
              });
              const expected = [1234];
              for (let offset = 1; offset < count; offset += 1) {
                const start = periodStart(planAnchor, interval, index + offset);
                const applies = term !== null && discountApplies(term, first, start);
                expected.push(fees - (applies ? discountAmountFor(term, fees, 'usd') : 0));
                // The renewal's own helper agrees with the rule too.
                if (discountOfPeriod(pricing, start).applies !== applies)
                  mismatches.push(`${start.toISOString()}`);
              }
              const said = expand(phases, count);
              // Phases follow each other: each ends where the next starts.
              const joined = phases
                .slice(1)
                .every((phase, at) => phases[at]!.endsAt?.getTime() === phase.startsAt.getTime());
              if (said.join() !== expected.join() || !joined) {
                mismatches.push(
                  `${planAnchor.toISOString()} ${interval} ${JSON.stringify(term)} ${index} ${firstIndex}`,
                );
              }
              checked += 1;
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(2000);
  });
});
