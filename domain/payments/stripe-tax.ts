// Stripe Tax as the tax calculator, when the Stripe processor is on: one Tax Calculation per
// checkout state (the caller's idempotency key), whose id is kept as the quote's reference.
import Stripe from 'stripe';
import type { TaxCalculator, TaxQuote, TaxQuoteInput } from '../tax/calculator.js';
import { toPaymentProcessorError } from './stripe.js';

/**
 * `"20.0"` → 2000: the rate in basis points when it is a whole number of them, read from the decimal
 * string so binary floating point never rounds it; null otherwise (`"9.875"`).
 */
export function percentageToBasisPoints(percentage: string): number | null {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(percentage);
  if (!match) return null;
  const decimals = (match[2] ?? '').padEnd(2, '0');
  if (!/^0*$/.test(decimals.slice(2))) return null;
  return Number(match[1]) * 100 + Number(decimals.slice(0, 2));
}

/** The single rate that applied, when exactly one did (taxes of several jurisdictions have none). */
function singleRateBasisPoints(calculation: Stripe.Tax.Calculation): number | null {
  const rates = new Set(
    calculation.tax_breakdown
      .filter((entry) => entry.amount > 0)
      .map((entry) => entry.tax_rate_details.percentage_decimal),
  );
  if (rates.size !== 1) return null;
  return percentageToBasisPoints([...rates][0]!);
}

export function createStripeTaxCalculator({ stripe }: { stripe: Stripe }): TaxCalculator {
  return {
    name: 'stripe',
    async quote(input: TaxQuoteInput): Promise<TaxQuote | null> {
      const address = input.billingAddress;
      if (!address?.country) return null;
      // Nothing to tax, nothing to record: a free checkout makes no calculation.
      if (input.amount === 0) return { amount: 0, rateBasisPoints: null, reference: null };
      try {
        const calculation = await stripe.tax.calculations.create(
          {
            currency: input.currency.toLowerCase(),
            // Checkout amounts are net of tax; the tax is added on top.
            line_items: [{ amount: input.amount, reference: input.productId, tax_behavior: 'exclusive' }],
            customer_details: {
              address: {
                country: address.country,
                line1: address.line1 ?? undefined,
                line2: address.line2 ?? undefined,
                city: address.city ?? undefined,
                state: address.state ?? undefined,
                postal_code: address.postal_code ?? undefined,
              },
              address_source: 'billing',
            },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return {
          amount: calculation.tax_amount_exclusive,
          rateBasisPoints: singleRateBasisPoints(calculation),
          reference: calculation.id,
        };
      } catch (error) {
        // The address is not precise enough for the jurisdiction (a US address without a ZIP
        // code): "cannot be computed yet", as without a country.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'customer_tax_location_invalid'
        ) {
          return null;
        }
        throw toPaymentProcessorError(error);
      }
    },
  };
}
