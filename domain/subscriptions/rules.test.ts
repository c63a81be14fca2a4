import { describe, expect, it } from '@jest/globals';
import {
  addCalendarMonths,
  awaitsCustomer,
  benefitChanges,
  changeInterval,
  changePlan,
  cycleBill,
  DEFAULT_DUNNING_RETRY_DAYS,
  discountApplies,
  lastTryAt,
  nextAttemptAfter,
  nextSubscriptionStep,
  openLedger,
  periodAt,
  periodStart,
  renewalMakesOrder,
  shareOf,
  type BillingPeriod,
} from './rules.js';

const utc = (text: string) => new Date(`${text}Z`);
const day = (date: Date) => date.toISOString().slice(0, 10);
const DAY_MS = 24 * 60 * 60 * 1000;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

describe('billing periods', () => {
  it('keeps the anchor day: 31 January renews on 28 February, then 31 March', () => {
    const anchor = utc('2025-01-31T10:15:30.250');
    expect([0, 1, 2, 3, 4].map((index) => periodStart(anchor, 'month', index).toISOString())).toEqual([
      '2025-01-31T10:15:30.250Z',
      '2025-02-28T10:15:30.250Z',
      '2025-03-31T10:15:30.250Z',
      '2025-04-30T10:15:30.250Z',
      '2025-05-31T10:15:30.250Z',
    ]);
    expect(day(periodStart(utc('2024-01-31T00:00:00'), 'month', 1))).toBe('2024-02-29');
  });

  it('renews a plan bought on 29 February on the 28th, and on the 29th again in leap years', () => {
    const anchor = utc('2024-02-29T12:00:00');
    expect([1, 2, 3, 4].map((index) => day(periodStart(anchor, 'year', index)))).toEqual([
      '2025-02-28',
      '2026-02-28',
      '2027-02-28',
      '2028-02-29',
    ]);
  });

  // Every anchor day of every month of 2023–2024 (28-, 29-, 30- and 31-day months), four years on.
  // 35,000 periods: the wrong ones are collected and compared once, since an expect per period
  // made this one test take seconds.
  it('lands on the anchor day or the last day of shorter months, for every anchor day', () => {
    const wrong: string[] = [];
    for (let month = 0; month < 24; month += 1) {
      const year = 2023 + Math.floor(month / 12);
      for (let anchorDay = 1; anchorDay <= daysIn(year, month % 12); anchorDay += 1) {
        const anchor = new Date(Date.UTC(year, month % 12, anchorDay, 8, 30));
        for (let index = 0; index <= 48; index += 1) {
          const start = periodStart(anchor, 'month', index);
          const targetMonth = (month % 12) + index;
          const targetYear = year + Math.floor(targetMonth / 12);
          const expected = new Date(
            Date.UTC(
              targetYear,
              targetMonth % 12,
              Math.min(anchorDay, daysIn(targetYear, targetMonth % 12)),
              8,
              30,
            ),
          );
          if (start.getTime() !== expected.getTime()) {
            wrong.push(
              `${anchor.toISOString()} #${index}: ${start.toISOString()}, not ${expected.toISOString()}`,
            );
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds the period of any instant: from its start (included) to its end (excluded)', () => {
    for (const interval of ['month', 'year'] as const) {
      const anchor = utc('2024-01-31T18:00:00');
      for (let offset = 0; offset < 3 * 366; offset += 1) {
        for (const at of [
          new Date(anchor.getTime() + offset * DAY_MS),
          new Date(anchor.getTime() + offset * DAY_MS - 1),
        ]) {
          if (at < anchor) continue;
          const period = periodAt(anchor, interval, at);
          expect(period.start.getTime()).toBeLessThanOrEqual(at.getTime());
          expect(period.end.getTime()).toBeGreaterThan(at.getTime());
          expect(period.start).toEqual(periodStart(anchor, interval, period.index));
          expect(period.end).toEqual(periodStart(anchor, interval, period.index + 1));
        }
      }
      expect(periodAt(anchor, interval, anchor).index).toBe(0);
      expect(periodAt(anchor, interval, periodStart(anchor, interval, 5)).index).toBe(5);
    }
    expect(() => periodAt(utc('2025-01-01T00:00:00'), 'month', utc('2024-12-31T23:59:59'))).toThrow(
      RangeError,
    );
  });

  it('counts calendar months backwards too', () => {
    expect(day(addCalendarMonths(utc('2025-03-31T00:00:00'), -1))).toBe('2025-02-28');
    expect(day(addCalendarMonths(utc('2025-01-15T00:00:00'), -13))).toBe('2023-12-15');
  });
});

describe('discount durations', () => {
  const anchor = utc('2025-01-31T09:00:00');
  const applied = (
    term: Parameters<typeof discountApplies>[0],
    interval: 'month' | 'year',
    periods: number,
  ) =>
    Array.from({ length: periods }, (_, index) =>
      discountApplies(term, anchor, periodStart(anchor, interval, index)),
    ).filter(Boolean).length;

  it('applies once to the first period only', () => {
    expect(applied({ duration: 'once', durationInMonths: null }, 'month', 24)).toBe(1);
    expect(applied({ duration: 'once', durationInMonths: null }, 'year', 5)).toBe(1);
  });

  it('applies forever to every period', () => {
    expect(applied({ duration: 'forever', durationInMonths: null }, 'month', 36)).toBe(36);
  });

  // Polar ends a repeating discount one cycle early (its issue 13769); n months are n monthly periods.
  it.each([1, 2, 3, 6, 11, 12, 13, 24])(
    'repeats for exactly %i monthly periods, even from the 31st',
    (months) => {
      expect(applied({ duration: 'repeating', durationInMonths: months }, 'month', 40)).toBe(months);
    },
  );

  it.each([
    [1, 1],
    [12, 1],
    [13, 2],
    [24, 2],
    [25, 3],
  ])('repeating %i months covers %i yearly periods (those starting within the months)', (months, periods) => {
    expect(applied({ duration: 'repeating', durationInMonths: months }, 'year', 6)).toBe(periods);
  });

  it('does not apply before it was first applied (a discount changed mid-subscription starts next cycle)', () => {
    const next = periodStart(anchor, 'month', 3);
    expect(
      discountApplies({ duration: 'forever', durationInMonths: null }, next, periodStart(anchor, 'month', 2)),
    ).toBe(false);
    expect(discountApplies({ duration: 'once', durationInMonths: null }, next, next)).toBe(true);
  });
});

describe('shareOf', () => {
  it('rounds half up, exactly, also past 2^53', () => {
    expect(shareOf(1000, 1, 2)).toBe(500);
    expect(shareOf(1, 1, 2)).toBe(1);
    expect(shareOf(1, 1, 3)).toBe(0);
    expect(shareOf(2, 1, 3)).toBe(1);
    const yearMs = 366 * DAY_MS;
    expect(shareOf(99_999_999, yearMs - 1, yearMs)).toBe(99_999_999);
    expect(shareOf(99_999_999, yearMs / 2, yearMs)).toBe(50_000_000);
    expect(() => shareOf(1, 1, 0)).toThrow(RangeError);
  });
});

describe('plan changes', () => {
  const monthOf = (year: number, month: number): BillingPeriod => ({
    index: 0,
    start: new Date(Date.UTC(year, month, 1)),
    end: new Date(Date.UTC(year, month + 1, 1)),
  });

  it("bills Polar's example: $10 to $30 at half the period is −$5 + $15, $10 now", () => {
    const period = monthOf(2025, 3); // April: 30 days, half is the 16th
    const change = changePlan(
      period,
      openLedger(period, 1000),
      { current: 1000, next: 3000 },
      utc('2025-04-16T00:00:00'),
    );
    expect(change).toMatchObject({ credit: 500, debit: 1500 });
    expect(change.ledger).toMatchObject({ billed: 2000, used: 500 });
  });

  it('keeps a downgrade’s credit whole (carried to the next order, never lost)', () => {
    const period = monthOf(2025, 3);
    const change = changePlan(
      period,
      openLedger(period, 3000),
      { current: 3000, next: 1000 },
      utc('2025-04-16T00:00:00'),
    );
    expect(change.credit - change.debit).toBe(1000);
  });

  // Every day of a 28-, 29-, 30- and 31-day month, in usd (cents) and jpy (no minor unit).
  it.each([
    [2025, 1],
    [2024, 1],
    [2025, 3],
    [2025, 0],
  ])('credits the unused part and charges the new plan’s, on every day of %i-%i', (year, month) => {
    const period = monthOf(year, month);
    const days = daysIn(year, month);
    for (const [current, next] of [
      [1000, 3000],
      [4900, 1900],
      [1234, 0],
      [500_000, 120_000],
    ] as const) {
      for (let elapsed = 0; elapsed <= days; elapsed += 1) {
        const at = new Date(period.start.getTime() + elapsed * DAY_MS);
        const change = changePlan(period, openLedger(period, current), { current, next }, at);
        const left = days - elapsed;
        expect(change.credit).toBe(shareOf(current, left, days));
        expect(change.debit).toBe(shareOf(next, left, days));
        expect(Number.isInteger(change.credit) && Number.isInteger(change.debit)).toBe(true);
        // Nothing appears or disappears: what is billed is what was used plus what is left.
        expect(Math.abs(change.ledger.billed - change.ledger.used - change.debit)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('cannot be gamed by switching back and forth: the period costs at least what was used', () => {
    const period = monthOf(2025, 0);
    const length = period.end.getTime() - period.start.getTime();
    const rates = [1000, 10_000];
    let ledger = openLedger(period, rates[0]!);
    let rate = rates[0]!;
    let charged = rates[0]!;
    let used = 0;
    let last = period.start.getTime();
    // 60 switches, a few hours apart, alternating cheap and expensive.
    for (let switchIndex = 1; switchIndex <= 60; switchIndex += 1) {
      const at = period.start.getTime() + switchIndex * 11 * 60 * 60 * 1000;
      const next = rates[switchIndex % 2]!;
      const change = changePlan(period, ledger, { current: rate, next }, new Date(at));
      expect(change.credit).toBeLessThanOrEqual(ledger.billed - change.ledger.used);
      charged += change.debit - change.credit;
      used += (rate * (at - last)) / length;
      last = at;
      ledger = change.ledger;
      rate = next;
    }
    used += (rate * (period.end.getTime() - last)) / length;
    // At most half a minor unit of rounding per switch in the customer's favour.
    expect(charged).toBeGreaterThanOrEqual(Math.floor(used - 60 * 0.5));
    expect(charged).toBe(ledger.billed);
  });

  it('credits nothing that was never billed (a period made free by a 100 % discount)', () => {
    const period = monthOf(2025, 3);
    const change = changePlan(
      period,
      openLedger(period, 0),
      { current: 0, next: 3000 },
      utc('2025-04-16T00:00:00'),
    );
    expect(change).toMatchObject({ credit: 0, debit: 1500 });
    // Listed at 3000 but billed nothing: leaving it still credits nothing.
    const gamed = changePlan(
      period,
      openLedger(period, 0),
      { current: 3000, next: 1000 },
      utc('2025-04-16T00:00:00'),
    );
    expect(gamed.credit).toBe(0);
  });

  it('restarts the period on an interval change: credit for the old plan, the whole new fee now', () => {
    const period = monthOf(2025, 3);
    const at = utc('2025-04-11T00:00:00'); // 10 of 30 days used
    const change = changeInterval(period, openLedger(period, 3000), { current: 3000, next: 30_000 }, at);
    expect(change).toMatchObject({ credit: 2000, debit: 30_000 });
    expect(change.ledger).toEqual({ billed: 30_000, used: 0, since: at });
  });

  it('treats a change at or after the period end as leaving nothing to credit', () => {
    const period = monthOf(2025, 3);
    const change = changePlan(period, openLedger(period, 3000), { current: 3000, next: 1000 }, period.end);
    expect(change).toMatchObject({ credit: 0, debit: 0 });
  });
});

describe('nextAttemptAfter', () => {
  const at = new Date('2026-03-01T10:00:00.000Z');

  it('spaces the tries +2, +5, +7, +7 days by default, then gives up', () => {
    expect(nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 1, at)).toEqual(new Date('2026-03-03T10:00:00.000Z'));
    expect(nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 2, at)).toEqual(new Date('2026-03-06T10:00:00.000Z'));
    expect(nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 3, at)).toEqual(new Date('2026-03-08T10:00:00.000Z'));
    expect(nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 4, at)).toEqual(new Date('2026-03-08T10:00:00.000Z'));
    expect(nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 5, at)).toBeNull();
  });

  it('follows a schedule of the seller', () => {
    expect(nextAttemptAfter([1], 1, at)).toEqual(new Date('2026-03-02T10:00:00.000Z'));
    expect(nextAttemptAfter([1], 2, at)).toBeNull();
    expect(nextAttemptAfter([], 1, at)).toBeNull();
  });
});

describe('nextSubscriptionStep', () => {
  const base = {
    ended: false,
    currentPeriodIndex: 3,
    currentPeriodEndMs: 5000,
    canceledAtMs: null,
    unpaidOrder: null,
    testClock: null,
  };

  it('renews into the next period at the end of the current one', () => {
    expect(nextSubscriptionStep(base)).toEqual({ kind: 'cycle', index: 4, atMs: 5000 });
  });

  it('charges an unpaid order first, at its next try', () => {
    expect(nextSubscriptionStep({ ...base, unpaidOrder: { id: 'o', attempt: 2, dueAtMs: 7000 } })).toEqual({
      kind: 'charge',
      orderId: 'o',
      attempt: 2,
      atMs: 7000,
    });
  });
});

describe('cycleBill', () => {
  const fee = (amount: number) => ({ label: 'Pro', amount, proration: false, productPriceId: 'p' });
  const line = (amount: number) => ({ label: 'Proration', amount, proration: true, productPriceId: null });

  it('bills the fee less its discount, with debits and credits on top, the discount never on prorations', () => {
    const bill = cycleBill({ fees: [fee(3000)], feeDiscount: 600, pending: [line(1000), line(-400)] });
    expect(bill).toMatchObject({ subtotal: 3600, discount: 600, net: 3000, carriedCredit: 0 });
    expect(bill.items.map((item) => item.amount)).toEqual([3000, 1000, -400]);
  });

  it('never charges a negative amount: credit it cannot absorb is carried to the next order', () => {
    const bill = cycleBill({ fees: [fee(1000)], feeDiscount: 0, pending: [line(-1500)] });
    expect(bill).toMatchObject({ net: 0, subtotal: 0, discount: 0, carriedCredit: 500 });
    expect(bill.items.map((item) => item.amount)).toEqual([1000, -1500, 500]);
    expect(bill.items.reduce((sum, item) => sum + item.amount, 0)).toBe(bill.subtotal);
  });

  it('carries nothing from a plan that ends: the credit left is recorded as owed to the customer, once', () => {
    const bill = cycleBill({ fees: [], feeDiscount: 0, pending: [line(8), line(-1032)], ending: true });
    expect(bill).toMatchObject({ net: 0, subtotal: 0, discount: 0, carriedCredit: 0 });
    expect(bill.items.map((item) => [item.label, item.amount])).toEqual([
      ['Proration', 8],
      ['Proration', -1032],
      ['Unused credit owed to the customer (the plan ended)', 1024],
    ]);
    // A credit that the final bill absorbs whole leaves nothing owed.
    const absorbed = cycleBill({ fees: [], feeDiscount: 0, pending: [line(500), line(-200)], ending: true });
    expect(absorbed).toMatchObject({ net: 300, carriedCredit: 0 });
    expect(absorbed.items.map((item) => item.amount)).toEqual([500, -200]);
  });

  it('keeps subtotal − discount = net whatever the mix', () => {
    for (const [feeAmount, discount, pending] of [
      [0, 0, [-100]],
      [2000, 2000, [500, -300]],
      [999, 1, [-2000, 100]],
      [0, 0, []],
    ] as const) {
      const bill = cycleBill({ fees: [fee(feeAmount)], feeDiscount: discount, pending: pending.map(line) });
      expect(bill.subtotal - bill.discount).toBe(bill.net);
      expect(bill.net).toBeGreaterThanOrEqual(0);
      expect(bill.items.reduce((sum, item) => sum + item.amount, 0)).toBe(bill.subtotal);
    }
  });

  it('leaves out zero fees (a free or metered price) from the items', () => {
    expect(cycleBill({ fees: [fee(0)], feeDiscount: 0, pending: [] })).toEqual({
      items: [],
      subtotal: 0,
      discount: 0,
      net: 0,
      carriedCredit: 0,
    });
  });
});

describe('renewalMakesOrder', () => {
  const fee = (amount: number) => ({ label: 'Pro', amount, proration: false, productPriceId: 'p' });
  const line = (amount: number) => ({ label: 'Calls', amount, proration: false, productPriceId: 'm' });

  it('makes a renewal order whenever it has lines, a free one included', () => {
    expect(renewalMakesOrder(cycleBill({ fees: [fee(1000)], feeDiscount: 1000, pending: [] }))).toBe(true);
    expect(renewalMakesOrder(cycleBill({ fees: [fee(0)], feeDiscount: 0, pending: [] }))).toBe(false);
  });

  it('makes a final order for a plan that ends when something is left to charge or to account for', () => {
    const ending = (pending: ReturnType<typeof line>[]) =>
      cycleBill({ fees: [], feeDiscount: 0, pending, ending: true });
    expect(renewalMakesOrder(ending([line(8)]))).toBe(true);
    // Regression: only credit left made no order, and the credit was carried to one that never came.
    expect(renewalMakesOrder(ending([line(8), line(-20)]))).toBe(true);
    expect(renewalMakesOrder(ending([]))).toBe(false);
  });
});

describe('awaitsCustomer', () => {
  const declined = (declineCode: string, paymentMethodId: string | null) => ({
    status: 'failed',
    declineCode,
    paymentMethodId,
  });

  it('waits for the buyer once their bank asked to authenticate, while the plan renews on that card', () => {
    expect(awaitsCustomer(declined('authentication_required', 'pm_a'), 'pm_a')).toBe(true);
  });

  it('charges again after a new card, a plain decline, a paid try, no try, or a try recorded without its card', () => {
    expect(awaitsCustomer(declined('authentication_required', 'pm_a'), 'pm_b')).toBe(false);
    expect(awaitsCustomer(declined('insufficient_funds', 'pm_a'), 'pm_a')).toBe(false);
    expect(awaitsCustomer({ status: 'succeeded', declineCode: null, paymentMethodId: 'pm_a' }, 'pm_a')).toBe(
      false,
    );
    expect(awaitsCustomer(null, 'pm_a')).toBe(false);
    expect(awaitsCustomer(declined('authentication_required', null), null)).toBe(false);
  });
});

describe('lastTryAt', () => {
  it('is the last try of the schedule: +2, +5, +7, +7 days ends 21 days after the first failure', () => {
    const failedAt = utc('2026-03-01T09:00:00');
    const next = nextAttemptAfter(DEFAULT_DUNNING_RETRY_DAYS, 1, failedAt)!;
    expect(lastTryAt(DEFAULT_DUNNING_RETRY_DAYS, 1, next)).toEqual(
      new Date(failedAt.getTime() + 21 * DAY_MS),
    );
    // Seen from try 4: one try (+7) is left.
    const fourth = utc('2026-03-15T09:00:00');
    expect(lastTryAt(DEFAULT_DUNNING_RETRY_DAYS, 4, new Date(fourth.getTime() + 7 * DAY_MS))).toEqual(
      new Date(fourth.getTime() + 7 * DAY_MS),
    );
  });
});

describe('benefitChanges', () => {
  it("names what the new plan adds and what the current one loses, in each plan's order", () => {
    const chat = { id: 'chat' };
    const files = { id: 'files' };
    const license = { id: 'license' };
    const support = { id: 'support' };
    expect(benefitChanges([chat, files, license], [support, license, chat])).toEqual({
      gained: [support],
      lost: [files],
    });
    expect(benefitChanges([chat], [chat])).toEqual({ gained: [], lost: [] });
  });
});
