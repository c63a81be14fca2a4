// Tax is pluggable: none (the default), a rate table by country, or Stripe Tax when the Stripe
// processor is on. Amounts are minor units; the calculator only ever sees the net amount.

import type { z } from 'zod';
import type { addressSchema } from '../addresses/schemas.js';

export type TaxAddress = z.infer<typeof addressSchema>;

export type TaxQuoteInput = {
  /** Net amount (after discount) in minor units of `currency`. */
  amount: number;
  currency: string;
  billingAddress: TaxAddress | null;
  /**
   * The checkout's `customer_tax_id` as the buyer typed it (no type on the wire): a calculator
   * infers its kind from it and the billing country, or leaves it out (Stripe Tax: `stripeTaxIdOf`).
   */
  taxId: string | null;
  productId: string;
  /** Stable per checkout state, for calculators that call out (Stripe Tax). */
  idempotencyKey: string;
};

export type TaxQuote = {
  amount: number;
  /** Basis points when the rate is a single known rate; null when the calculator does not say. */
  rateBasisPoints: number | null;
  /** Reference the processor needs to record the transaction (Stripe Tax calculation id). */
  reference: string | null;
};

export type TaxCalculator = {
  readonly name: 'none' | 'rates' | 'stripe';
  /** Null means "cannot be computed yet" (no country): the wire shows `tax_amount: null`. */
  quote(input: TaxQuoteInput): Promise<TaxQuote | null>;
};
