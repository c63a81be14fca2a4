// The money and form rules of a checkout, pure (spec §3 Checkout; Polar's computed fields as
// @polar-sh/sdk@0.33.2 reads them). Amounts are integer minor units of the checkout currency.
//
// The service computes a checkout in two steps, because the tax quote needs the net amount:
//   1. `checkoutSubtotals({ price, requestedAmount, discount })`: amount, discount, net and the
//      payment flags (which do not depend on tax: tax on a zero net is zero);
//   2. quote tax on `netAmount` when `isPaymentFormRequired` (Polar asks for no tax otherwise),
//      then `withTax(subtotals, quote?.amount ?? null)`.
// `checkoutAmounts` does both when the tax amount is already known (a stored checkout).

import { invalidSubdivisionMessage, normalizeAddressState } from '../addresses/rules.js';
import { assertMinorUnits } from '../money/rules.js';
import { discountAmountFor, type PriceDiscount } from '../prices/discount.js';
import { minimumChargeAmount } from '../prices/limits.js';
import { priceBilledInAdvance, priceType, type CheckoutPrice } from '../prices/registry.js';
import type { ChargeIssue, StoredPrice } from '../prices/strategy.js';
import { checkoutTrial } from './trials.js';

/** One 422 entry, as the /v1 error handler renders it (`{ detail: [{ loc, msg, type }] }`). */
export type CheckoutIssue = ChargeIssue;

// ── Prices ──────────────────────────────────────────────────────────────────────────────────────
// What each price type charges is its own (domain/prices/); a checkout asks it.

export function checkoutPriceOf(price: StoredPrice): CheckoutPrice {
  return priceType(price.amountType).checkout.price(price);
}

/**
 * The price a checkout of this product charges: its static price (free, fixed or custom), which
 * decides the amount, as Polar picks it. Null when the product has only metered prices, which
 * cannot be bought through a checkout on their own.
 */
export const selectCheckoutPrice = priceBilledInAdvance;

export function checkoutCurrency(price: CheckoutPrice): string {
  return priceType(price.amountType).checkout.currency(price);
}

/** Polar's rule: every price with an amount takes discounts; a free price has nothing to take off. */
export function isPriceDiscountable(price: { amountType: string }): boolean {
  return !priceType(price.amountType).checkout.isFree;
}

/**
 * What is wrong with a pay-what-you-want amount (`amount` on checkout create/update/confirm), or
 * null when it may be charged. Fixed and free prices ignore `amount` (Polar), so they never have
 * an issue here.
 */
export function customAmountIssue(price: CheckoutPrice, requested: number): CheckoutIssue | null {
  return priceType(price.amountType).checkout.amountIssue(price, requested);
}

// ── Amounts ─────────────────────────────────────────────────────────────────────────────────────

/** The value of a discount; `DiscountTerms` (domain/discounts) fits. */
export type CheckoutDiscount = PriceDiscount;

export type CheckoutSubtotalsInput = {
  price: CheckoutPrice;
  /** The buyer's pay-what-you-want amount; null: `defaultCustomAmount`. Ignored for other prices. */
  requestedAmount: number | null;
  /** A seat-based price's seats, checked by the caller (null: the price's fewest). */
  seats?: number | null;
  discount: CheckoutDiscount | null;
  /** Recurring products need a saved payment method; only one-time products are sold for now. */
  isRecurring?: boolean;
};

export type CheckoutSubtotals = {
  currency: string;
  /** Before discount and tax. */
  amount: number;
  discountAmount: number;
  /** `amount - discountAmount`: what tax is computed on. */
  netAmount: number;
  isDiscountApplicable: boolean;
  /** The price is of the free type, whatever the discount (a custom price paid 0 is not). */
  isFreeProductPrice: boolean;
  /** Something is charged: the total is above zero (tax on a zero net is zero). */
  isPaymentRequired: boolean;
  isPaymentSetupRequired: boolean;
  /** The buyer must fill in a payment method: to pay now or to be charged later. */
  isPaymentFormRequired: boolean;
};

export type CheckoutAmounts = CheckoutSubtotals & {
  /** Null while it cannot be computed (no billing country yet), as on the wire. */
  taxAmount: number | null;
  /** `netAmount + taxAmount`, an unknown tax counting as 0 (Polar). */
  totalAmount: number;
};

/**
 * Amount, discount and net of a checkout. The requested amount must have passed
 * `customAmountIssue` and the price must not be metered (see `selectCheckoutPrice`): breaking
 * either is a bug in the caller and throws a RangeError instead of charging a wrong amount.
 */
export function checkoutSubtotals(input: CheckoutSubtotalsInput): CheckoutSubtotals {
  const { price, requestedAmount, discount } = input;
  const currency = checkoutCurrency(price);
  const amount = priceType(price.amountType).checkout.amount(
    price,
    requestedAmount,
    input.isRecurring ?? false,
    input.seats ?? null,
  );
  assertMinorUnits(amount, 'amount');
  const isDiscountApplicable = isPriceDiscountable(price);
  const discountAmount = discount && isDiscountApplicable ? discountAmountFor(discount, amount, currency) : 0;
  const netAmount = amount - discountAmount;
  const isFreeProductPrice = priceType(price.amountType).checkout.isFree;
  const isPaymentRequired = netAmount > 0;
  const isPaymentSetupRequired = (input.isRecurring ?? false) && !isFreeProductPrice;
  return {
    currency,
    amount,
    discountAmount,
    netAmount,
    isDiscountApplicable,
    isFreeProductPrice,
    isPaymentRequired,
    isPaymentSetupRequired,
    isPaymentFormRequired: isPaymentRequired || isPaymentSetupRequired,
  };
}

/**
 * Adds the tax quote. Without a payment form there is nothing to tax and the tax is 0 whatever is
 * passed (Polar sets it so); otherwise null stays null ("not computable yet").
 */
export function withTax(subtotals: CheckoutSubtotals, taxAmount: number | null): CheckoutAmounts {
  const tax = subtotals.isPaymentFormRequired ? taxAmount : 0;
  if (tax !== null) assertMinorUnits(tax, 'taxAmount');
  const totalAmount = subtotals.netAmount + (tax ?? 0);
  const isPaymentRequired = totalAmount > 0;
  return {
    ...subtotals,
    taxAmount: tax,
    totalAmount,
    isPaymentRequired,
    isPaymentFormRequired: isPaymentRequired || subtotals.isPaymentSetupRequired,
  };
}

export function checkoutAmounts(
  input: CheckoutSubtotalsInput & { taxAmount: number | null },
): CheckoutAmounts {
  return withTax(checkoutSubtotals(input), input.taxAmount);
}

/**
 * A total the processor would refuse: above zero but below the currency's smallest charge (a
 * discount can bring a $1 price to $0.40). Null when the total is 0 (nothing is charged) or
 * chargeable.
 */
export function minimumChargeIssue(totalAmount: number, currency: string): string | null {
  const minimum = minimumChargeAmount(currency);
  if (totalAmount === 0 || totalAmount >= minimum) return null;
  return `The total must be 0 or at least ${minimum}, the smallest charge in ${currency.toUpperCase()}.`;
}

// ── Checkout link prefills ──────────────────────────────────────────────────────────────────────

/** What a checkout link's URL prefilled that only pricing the checkout can judge. */
export type PricedPrefills = {
  amount: number | null;
  /** The discount of a prefilled code. */
  discountId: string | null;
  customFieldData: Record<string, string | boolean>;
};

/**
 * The prefills without those the pricing refused (the `issues` of its 422): a link must never
 * break on a bad prefill. Null when an issue is about anything else (or none is named), e.g. a
 * product that cannot be sold, which a retry without prefills would not cure and must not hide.
 */
export function withoutRefusedPrefills(
  prefills: PricedPrefills,
  issues: readonly CheckoutIssue[],
): PricedPrefills | null {
  if (issues.length === 0) return null;
  const refusedSlugs = new Set<string | number>();
  let { amount, discountId } = prefills;
  for (const { loc } of issues) {
    const [where, field, slug] = loc;
    if (where !== 'body') return null;
    if (field === 'amount' && prefills.amount !== null) amount = null;
    else if (field === 'discount_code' && prefills.discountId !== null) discountId = null;
    else if (
      field === 'custom_field_data' &&
      slug !== undefined &&
      Object.hasOwn(prefills.customFieldData, slug)
    )
      refusedSlugs.add(slug);
    else return null;
  }
  const customFieldData = Object.fromEntries(
    Object.entries(prefills.customFieldData).filter(([slug]) => !refusedSlugs.has(slug)),
  );
  return { amount, discountId, customFieldData };
}

// ── Billing address ─────────────────────────────────────────────────────────────────────────────

/** Which billing address fields the checkout form requires (the wire's `customer_billing_address_fields`). */
export type BillingAddressFields = {
  country: boolean;
  state: boolean;
  city: boolean;
  postal_code: boolean;
  line1: boolean;
  line2: boolean;
};

const ADDRESS_FIELDS = ['country', 'state', 'city', 'postal_code', 'line1', 'line2'] as const;

/**
 * Polar's rule: the country always (it decides tax); a state in the US and Canada; the street,
 * city and postal code when the seller requires the full address, the buyer is a business, or the
 * buyer is in the US (US sales tax needs the address); line 2 never.
 */
export function customerBillingAddressFields(input: {
  country: string | null;
  requireBillingAddress: boolean;
  isBusinessCustomer?: boolean;
}): BillingAddressFields {
  const country = input.country?.toUpperCase() ?? null;
  const isFullAddress =
    input.requireBillingAddress || (input.isBusinessCustomer ?? false) || country === 'US';
  return {
    country: true,
    state: country === 'US' || country === 'CA',
    city: isFullAddress,
    postal_code: isFullAddress,
    line1: isFullAddress,
    line2: false,
  };
}

export type BillingAddressFieldMode = 'required' | 'optional' | 'disabled';

/**
 * The same fields as @polar-sh/sdk@0.48.1's `billing_address_fields` names them: what is asked is
 * required; the second address line is offered, optional, with a full address.
 */
export function billingAddressFieldModes(
  fields: BillingAddressFields,
): Record<keyof BillingAddressFields, BillingAddressFieldMode> {
  const mode = (asked: boolean): BillingAddressFieldMode => (asked ? 'required' : 'disabled');
  return {
    country: mode(fields.country),
    state: mode(fields.state),
    city: mode(fields.city),
    postal_code: mode(fields.postal_code),
    line1: mode(fields.line1),
    line2: fields.line2 ? 'required' : fields.line1 ? 'optional' : 'disabled',
  };
}

/**
 * When the billing address must be complete at confirmation: to pay (the processor and tax need
 * it), or when the seller or a business purchase asks for the full address (Polar).
 */
export function isBillingAddressRequired(input: {
  isPaymentFormRequired: boolean;
  requireBillingAddress: boolean;
  isBusinessCustomer?: boolean;
}): boolean {
  return input.isPaymentFormRequired || input.requireBillingAddress || (input.isBusinessCustomer ?? false);
}

export type BillingAddressInput = {
  country?: string | null;
  state?: string | null;
  city?: string | null;
  postal_code?: string | null;
  line1?: string | null;
  line2?: string | null;
};

/**
 * Each required field that is missing or blank, and a US or Canadian state that is not one, with
 * `loc` under `customer_billing_address` (Polar's confirm errors).
 */
export function billingAddressIssues(
  address: BillingAddressInput | null,
  fields: BillingAddressFields,
): CheckoutIssue[] {
  const base = ['body', 'customer_billing_address'];
  if (!address) return [{ loc: base, msg: 'Field is required.', type: 'missing' }];
  const issues: CheckoutIssue[] = [];
  for (const field of ADDRESS_FIELDS) {
    if (fields[field] && !address[field]?.trim()) {
      issues.push({ loc: [...base, field], msg: 'Field is required.', type: 'missing' });
    }
  }
  const country = address.country?.trim().toUpperCase();
  if ((country === 'US' || country === 'CA') && address.state?.trim()) {
    if (normalizeAddressState(country, address.state) === null) {
      issues.push({ loc: [...base, 'state'], msg: invalidSubdivisionMessage(country), type: 'value_error' });
    }
  }
  return issues;
}

// ── Workflow signals ─────────────────────────────────────────────────────────────────────────────

/**
 * How long the buyer has to finish 3-D Secure before the payment is canceled and the checkout
 * fails (the buyer may then pay again). Card issuers' challenges themselves time out in minutes.
 */
export const AUTHENTICATION_LIMIT_MS = 30 * 60 * 1000;
export const AUTHENTICATION_TIMEOUT_MESSAGE =
  'Your card was not authenticated in time. Please try again or use another card.';

export const CHECKOUT_SIGNALS = { confirmed: 'confirmed', payment: 'payment' } as const;

export const checkoutWorkflowId = (checkoutId: string) => `checkout:${checkoutId}`;

export type CheckoutWorkflowInput = {
  checkoutId: string;
  /**
   * When the checkout expires, as the start that follows its creation knows it: the workflow then
   * waits for the buyer without reading the row first. Absent on every other start.
   */
  expiresAtMs?: number;
};

export type CheckoutConfirmedSignal = { attempt: number };

/** A processor's word on a payment, after de-duplication (see domain/payments/). */
export type CheckoutPaymentSignal =
  | { type: 'payment.succeeded'; paymentId: string }
  | { type: 'payment.failed'; paymentId: string | null; message: string };

/**
 * A plan that charges nothing today but is not free (a fully discounted first period, or a free
 * trial): the card is saved without a charge (a SetupIntent), so its renewals can be charged. The
 * checkout says so as `is_payment_setup_required`.
 */
export function savesCardWithoutCharge(checkout: {
  totalAmount: number;
  allowTrial: boolean;
  trialInterval: string | null;
  trialIntervalCount: number | null;
  product: {
    recurringInterval: string | null;
    trialInterval: string | null;
    trialIntervalCount: number | null;
  };
  productPrice: { amountType: string };
}): boolean {
  return (
    (checkout.totalAmount === 0 || checkoutTrial(checkout) !== null) &&
    checkout.product.recurringInterval !== null &&
    !priceType(checkout.productPrice.amountType).checkout.isFree
  );
}
