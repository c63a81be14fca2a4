// The two tax calculators that need no outside service: none (the default) and a rate table from
// configuration (`TAX_RATES`). Stripe Tax is the third, wired in where the Stripe processor is.

import { z } from 'zod';
import { applyBasisPoints, BASIS_POINTS_SCALE } from '../money/rules.js';
import type { TaxAddress, TaxCalculator, TaxQuote, TaxQuoteInput } from './calculator.js';

export const DEFAULT_RATE_KEY = 'default';

/**
 * `{"DE": 1900, "US-CA": 725, "default": 0}`: rates in basis points (19% = 1900) by ISO 3166-1
 * country, or by country and ISO 3166-2 subdivision suffix (`US-CA`, `CA-QC`, `DE-BY`), which
 * takes precedence over the country's. `default` applies to countries not listed; without it they
 * pay no tax.
 */
export const taxRateTableSchema = z.record(
  z.string().regex(/^(default|[A-Z]{2}(-[A-Z0-9]{1,3})?)$/),
  z
    .number({ error: 'rates are numbers of basis points (19% = 1900)' })
    .int('rates are whole basis points (19% = 1900)')
    .min(0, 'rates are at least 0')
    .max(BASIS_POINTS_SCALE, 'rates are at most 10000 basis points (100%)'),
  {
    // zod reports a bad key as "Invalid key in record"; say what a key may be instead.
    error: (issue) =>
      issue.code === 'invalid_key'
        ? 'keys are "default", a country code (DE) or a country and region code (US-CA), upper-case'
        : undefined,
  },
);

export type TaxRateTable = z.infer<typeof taxRateTableSchema>;

/**
 * The rate for a billing address, or null while it cannot be known: no address yet, or a country
 * whose regions have their own rates and no region given (a US address before its state).
 */
export function taxRateFor(table: TaxRateTable, address: TaxAddress | null): number | null {
  const country = address?.country.trim().toUpperCase() ?? '';
  if (country === '') return null;
  // Polar stores US and Canadian states prefixed (`US-CA`); buyers type `CA`.
  const region = (address?.state ?? '')
    .trim()
    .toUpperCase()
    .replace(new RegExp(`^${country}-`), '');
  if (region !== '') {
    const regional = table[`${country}-${region}`];
    if (regional !== undefined) return regional;
  } else if (Object.keys(table).some((key) => key.startsWith(`${country}-`))) {
    return null;
  }
  return table[country] ?? table[DEFAULT_RATE_KEY] ?? 0;
}

/**
 * No tax configured: the tax is known to be zero, so the checkout shows 0 rather than null and
 * never waits for a country to compute it.
 */
export const noTax: TaxCalculator = {
  name: 'none',
  quote: async (): Promise<TaxQuote> => ({ amount: 0, rateBasisPoints: 0, reference: null }),
};

/** Tax at the address's rate on the net amount, rounded half-up to the minor unit. */
export function rateTableTax(table: TaxRateTable): TaxCalculator {
  const rates = taxRateTableSchema.parse(table);
  return {
    name: 'rates',
    quote: async (input) => {
      const rate = taxRateFor(rates, input.billingAddress);
      if (rate === null) return null;
      return { amount: applyBasisPoints(input.amount, rate), rateBasisPoints: rate, reference: null };
    },
  };
}

/**
 * What an order made without a checkout (a renewal, a plan change billed now, a seller's draft) is
 * taxed by: its customer's billing address and tax number as they are when it is billed, as Stripe
 * Billing and Polar tax a renewal (a checkout saves what it collected onto the customer). The
 * number goes as a checkout's does, its kind left to the calculator (a reverse charge is Stripe
 * Tax's to decide, `stripeTaxIdOf`). No customer (deleted): no address, no tax.
 */
export function customerTaxBasis(
  customer: { billingAddress: unknown; taxId: unknown } | null,
): Pick<TaxQuoteInput, 'billingAddress' | 'taxId'> {
  return {
    billingAddress: (customer?.billingAddress as TaxAddress | null) ?? null,
    // Stored as `[value, format]`.
    taxId: (customer?.taxId as [string, string] | null)?.[0] ?? null,
  };
}
