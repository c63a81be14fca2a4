// Property tests of money in minor units across currencies with 0, 2 and 3 decimals: what is typed
// is read back exactly, extra precision is refused, and what is shown carries every minor digit in
// every locale the buyer may read it in.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  applyBasisPoints,
  BASIS_POINTS_SCALE,
  decimalAmount,
  minorUnitDigits,
} from '../../domain/money/rules';
import { formatMoney, parseMajorInput, readMajorInput } from './format';

const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'krw', 'kwd', 'bhd', 'huf'] as const;
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'nl-NL', 'ja-JP'] as const;

const currency = fc.constantFrom(...CURRENCIES);
// Up to a trillion major units of a 3-decimal currency: within `parseMajorInput`'s 12 whole digits.
const amount = fc.integer({ min: 0, max: 999_999_999_999 });

describe('money in minor units, every currency', () => {
  it('has the digits the payment processor counts: jpy and krw none, kwd and bhd three, others two', () => {
    expect(CURRENCIES.map((code) => [code, minorUnitDigits(code)])).toEqual([
      ['usd', 2],
      ['eur', 2],
      ['gbp', 2],
      ['jpy', 0],
      ['krw', 0],
      ['kwd', 3],
      ['bhd', 3],
      ['huf', 2],
    ]);
  });

  it('reads back exactly what it writes as a decimal, in either separator', () => {
    fc.assert(
      fc.property(currency, amount, (code, minor) => {
        const decimal = decimalAmount(minor, code);
        expect(parseMajorInput(decimal, code)).toBe(minor);
        expect(parseMajorInput(decimal.replace('.', ','), code)).toBe(minor);
      }),
    );
  });

  it('refuses one decimal more than the currency has, never rounding it', () => {
    fc.assert(
      fc.property(currency, amount, fc.integer({ min: 0, max: 9 }), (code, minor, extra) => {
        const decimal = decimalAmount(minor, code);
        const longer = minorUnitDigits(code) === 0 ? `${decimal}.${extra}` : `${decimal}${extra}`;
        expect(parseMajorInput(longer, code)).toBeNull();
        expect(readMajorInput(longer, code, 'not an amount').error).toMatch(/decimals/);
      }),
    );
  });

  it('shows every minor digit, in every locale the checkout speaks', () => {
    fc.assert(
      fc.property(currency, amount, fc.constantFrom(...LOCALES), (code, minor, locale) => {
        const shown = formatMoney(minor, code, locale);
        // The digits shown, separators dropped, are the amount's minor units.
        const digits = shown.replace(/[^0-9]/g, '');
        expect(BigInt(digits)).toBe(BigInt(minor));
        const fraction = /[.,](\d+)\D*$/.exec(shown)?.[1] ?? '';
        if (minorUnitDigits(code) > 0) expect(fraction).toHaveLength(minorUnitDigits(code));
      }),
    );
  });

  it('sums exactly: the decimal of a sum is the sum of the decimals, digit for digit', () => {
    fc.assert(
      fc.property(currency, fc.array(amount, { maxLength: 20 }), (code, amounts) => {
        const total = amounts.reduce((sum, each) => sum + each, 0);
        const summedDecimals = amounts.reduce(
          (sum, each) => sum + BigInt(decimalAmount(each, code).replace('.', '')),
          0n,
        );
        expect(BigInt(decimalAmount(total, code).replace('.', ''))).toBe(summedDecimals);
      }),
    );
  });

  it('a share is the nearest minor unit of the exact fraction, ties up, in any currency', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: BASIS_POINTS_SCALE }), (minor, basisPoints) => {
        const share = applyBasisPoints(minor, basisPoints);
        // |share × 10 000 − amount × bp| ≤ 5 000, and a tie (exactly 5 000) goes up.
        const error = BigInt(share) * BigInt(BASIS_POINTS_SCALE) - BigInt(minor) * BigInt(basisPoints);
        expect(error <= 5000n && error > -5000n).toBe(true);
        expect(share).toBeLessThanOrEqual(minor);
      }),
    );
  });
});
