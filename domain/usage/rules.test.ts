import { describe, expect, it } from '@jest/globals';
import { meteredLineAmount, meteredLineCharge, shareMeterCredits } from './rules.js';

describe('meteredLineAmount', () => {
  const amount = (unitAmount: string, units: string, creditedUnits = '0', capAmount: number | null = null) =>
    meteredLineAmount({ unitAmount, units, creditedUnits, capAmount });

  it('multiplies units by the unit amount in cents', () => {
    expect(amount('50', '3')).toBe(150);
    expect(amount('1', '0')).toBe(0);
  });

  it('rounds a sub-cent price once, half up, on the line total, never per unit', () => {
    // 1,000 units at 0.35 ¢: 350 ¢; rounding each unit first would bill 0 ¢ (or 1,000 ¢).
    expect(amount('0.35', '1000')).toBe(350);
    expect(amount('0.005', '100')).toBe(1); // 0.5 ¢ → 1
    expect(amount('0.005', '99')).toBe(0); // 0.495 ¢ → 0
    expect(amount('0.0035', '1429')).toBe(5); // 5.0015 ¢
    expect(amount('2.5', '1')).toBe(3);
    expect(amount('1.5', '0.5')).toBe(1); // 0.75 ¢
  });

  it('is exact where floating point is not', () => {
    // 0.1 + 0.2 units at 10 ¢: 3 ¢ exactly (as numeric gives it), not 3.0000000000000004.
    expect(amount('10', '0.300000000000000000')).toBe(3);
    // 0.145 × 100 = 14.5 → 15; in floating point 0.145 * 100 = 14.499999999999998 → 14.
    expect(amount('0.145', '100')).toBe(15);
    expect(amount('0.000000000001', '500000000000')).toBe(1); // 0.5 ¢ → 1
  });

  it('bills only what credits do not cover, never below zero', () => {
    expect(amount('10', '120', '100')).toBe(200);
    expect(amount('10', '80', '100')).toBe(0);
    expect(amount('10', '100.5', '100')).toBe(5);
  });

  it('caps the line at cap_amount', () => {
    expect(amount('10', '1000', '0', 2500)).toBe(2500);
    expect(amount('10', '100', '0', 2500)).toBe(1000);
    expect(amount('10', '1000', '0', 0)).toBe(0);
  });
});

describe('meteredLineCharge', () => {
  const charge = (unitAmount: string, units: string, creditedUnits = '0', capAmount: number | null = null) =>
    meteredLineCharge({ unitAmount, units, creditedUnits, capAmount });

  it('says the units billed after credits, exactly, as decimal text', () => {
    expect(charge('0.35', '1001', '100')).toEqual({ billableUnits: '901', amount: 315, capped: false });
    expect(charge('10', '100.5', '100')).toEqual({ billableUnits: '0.5', amount: 5, capped: false });
    expect(charge('10', '0.300000000000000000', '0.1')).toEqual({
      billableUnits: '0.2',
      amount: 2,
      capped: false,
    });
    expect(charge('10', '0.05')).toEqual({ billableUnits: '0.05', amount: 1, capped: false });
  });

  it('bills nothing, uncapped, when credits cover the usage', () => {
    expect(charge('10', '80', '100', 0)).toEqual({ billableUnits: '0', amount: 0, capped: false });
    expect(charge('10', '100', '100')).toEqual({ billableUnits: '0', amount: 0, capped: false });
  });

  it('says when the cap lowered the amount, and not when the amount only reached it', () => {
    expect(charge('0.35', '1001', '100', 300)).toEqual({ billableUnits: '901', amount: 300, capped: true });
    expect(charge('10', '250', '0', 2500)).toEqual({ billableUnits: '250', amount: 2500, capped: false });
    expect(charge('10', '1000', '0', 0)).toEqual({ billableUnits: '1000', amount: 0, capped: true });
  });

  it('agrees with meteredLineAmount', () => {
    for (const [unitAmount, units, credited, cap] of [
      ['0.35', '1000', '0', null],
      ['0.005', '99', '0', null],
      ['2.5', '3', '1', 4],
      ['0.145', '100', '0', null],
    ] as const) {
      expect(charge(unitAmount, units, credited, cap).amount).toBe(
        meteredLineAmount({ unitAmount, units, creditedUnits: credited, capAmount: cap }),
      );
    }
  });
});

describe('shareMeterCredits', () => {
  const share = (credited: string, units: string[], takenBefore = '0') =>
    shareMeterCredits({ credited, takenBefore, units });

  it('offers one line all of the period’s credits, used or not', () => {
    expect(share('100', ['600'])).toEqual({ available: ['100'], taken: '100' });
    expect(share('100', ['0'])).toEqual({ available: ['100'], taken: '0' });
  });

  it('applies them once across a meter’s lines, the earliest usage first (regression: each line took them all)', () => {
    // A plan change dropped the first price after 60 units; the next one used 80.
    expect(share('100', ['60', '80'])).toEqual({ available: ['100', '40'], taken: '100' });
    expect(share('100', ['600', '300'])).toEqual({ available: ['100', '0'], taken: '100' });
  });

  it('offers only what usage billed earlier in the period left', () => {
    expect(share('100', ['80'], '60')).toEqual({ available: ['40'], taken: '100' });
    expect(share('100', ['10'], '60')).toEqual({ available: ['40'], taken: '70' });
    // Credits taken back after they were used leave nothing to offer, and take nothing back.
    expect(share('50', ['10'], '60')).toEqual({ available: ['0'], taken: '60' });
  });

  it('is exact with fractional units', () => {
    expect(share('1.5', ['0.25', '2'])).toEqual({ available: ['1.5', '1.25'], taken: '1.5' });
    expect(share('10', ['0.001'], '2.5')).toEqual({ available: ['7.5'], taken: '2.501' });
  });
});
