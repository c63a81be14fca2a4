// Turns what a checkout holds (product, price, buyer's amount, discount, address, custom fields)
// into its money columns and flags, through the pure rules of ./rules.ts and the tax calculator.
// Every write re-prices from scratch, so no client-sent figure ever reaches a charge.

import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { validateCustomFieldData } from '../custom-fields/rules.js';
import type { DiscountDuration, DiscountType } from '../discounts/schemas.js';
import { InvalidInputError, type FieldIssue } from '../platform/errors.js';
import type { TaxAddress, TaxCalculator } from '../tax/calculator.js';
import { priceType } from '../prices/registry.js';
import { findProduct, findCurrentPriceOfProduct } from '../products/repository.js';
import {
  billingAddressIssues,
  checkoutSubtotals,
  customAmountIssue,
  customerBillingAddressFields,
  isBillingAddressRequired,
  minimumChargeIssue,
  selectCheckoutPrice,
  withTax,
  type BillingAddressFields,
} from './rules.js';
import { customFieldView } from '../custom-fields/views.js';
import { findDiscountOfOrganization } from '../discounts/repository.js';
import { discountApplicability } from '../discounts/rules.js';

type Client = Db | Prisma.TransactionClient;

export type CheckoutInputs = {
  organizationId: string;
  checkoutId: string | null;
  productIds: string[];
  productId: string;
  /** Null: the product's static price. */
  productPriceId: string | null;
  requestedAmount: number | null;
  /** The seats asked for (null: the checkout's fewest, else the price's); seat-based prices only. */
  seats: number | null;
  /**
   * The checkout's own bounds on the seats (`min_seats`, `max_seats`), within the price's.
   * `asked`: sent with this request, so refused where they cannot apply; bounds stored for
   * another of the checkout's products apply only where they fit the chosen product's price.
   */
  seatBounds: { minimum: number | null; maximum: number | null; asked: boolean };
  discountId: string | null;
  customFieldData: Record<string, unknown>;
  billingAddress: TaxAddress | null;
  taxId: string | null;
  requireBillingAddress: boolean;
  isBusinessCustomer: boolean;
  /** This checkout already holds one of the discount's redemptions. */
  discountHeld: boolean;
};

export type PricingOptions = {
  now: Date;
  /** Confirmation: required custom fields, the billing address and the minimum charge are enforced. */
  strict: boolean;
  /**
   * Where an inapplicable discount is reported; null: it is kept but takes nothing off (while the
   * buyer is still filling in the form). A confirmation always reports it, so nobody pays more
   * than the discount they were shown.
   */
  failOnInapplicableDiscount: 'discount_code' | 'discount_id' | null;
};

export type PricedCheckout = {
  productId: string;
  productPriceId: string;
  currency: string;
  amount: number;
  seats: number | null;
  discountId: string | null;
  discountAmount: number;
  netAmount: number;
  taxAmount: number | null;
  taxReference: string | null;
  totalAmount: number;
  customFieldData: Record<string, string | number | boolean | null>;
  billingAddressFields: BillingAddressFields;
  isDiscountApplicable: boolean;
  isFreeProductPrice: boolean;
  isPaymentRequired: boolean;
  isPaymentSetupRequired: boolean;
  isPaymentFormRequired: boolean;
};

const fail = (issues: FieldIssue[]): never => {
  throw new InvalidInputError(issues);
};

const NOT_SEAT_BASED = 'Seats can only be set for seat-based pricing.';

/** The checkout's seat bounds that hold for `price`: all of those asked for, the stored ones that fit it. */
function boundsThatApply(
  type: ReturnType<typeof priceType>,
  price: ReturnType<ReturnType<typeof priceType>['checkout']['price']>,
  bounds: CheckoutInputs['seatBounds'],
): { minimum: number | null; maximum: number | null } {
  if (bounds.asked) return bounds;
  const fits = (bound: number | null) =>
    bound !== null && type.checkout.takesSeats && type.checkout.seatsIssue(price, bound) === null
      ? bound
      : null;
  return { minimum: fits(bounds.minimum), maximum: fits(bounds.maximum) };
}

/**
 * The seats a checkout sells: those asked for, else its own fewest, else the price's; refused
 * outside the price's table or the checkout's bounds, and for a price not sold by the seat.
 */
function checkoutSeats(
  type: ReturnType<typeof priceType>,
  price: ReturnType<ReturnType<typeof priceType>['checkout']['price']>,
  inputs: Pick<CheckoutInputs, 'seats' | 'seatBounds'>,
): number | null {
  const { minimum, maximum } = boundsThatApply(type, price, inputs.seatBounds);
  if (!type.checkout.takesSeats) {
    const field =
      inputs.seats !== null
        ? 'seats'
        : minimum !== null
          ? 'min_seats'
          : maximum !== null
            ? 'max_seats'
            : null;
    return field ? fail([{ loc: ['body', field], msg: NOT_SEAT_BASED, type: 'value_error' }]) : null;
  }
  if (minimum !== null && maximum !== null && minimum > maximum) {
    fail([{ loc: ['body', 'max_seats'], msg: 'max_seats must be at least min_seats.', type: 'value_error' }]);
  }
  for (const [bound, field] of [
    [minimum, 'min_seats'],
    [maximum, 'max_seats'],
  ] as const) {
    const issue = bound === null ? null : type.checkout.seatsIssue(price, bound);
    if (issue) fail([{ ...issue, loc: ['body', field] }]);
  }
  const seats = inputs.seats ?? minimum ?? type.checkout.defaultSeats(price)!;
  const issue =
    type.checkout.seatsIssue(price, seats) ??
    (minimum !== null && seats < minimum
      ? { loc: ['seats'], msg: `Minimum ${minimum} seats required.`, type: 'value_error' }
      : maximum !== null && seats > maximum
        ? { loc: ['seats'], msg: `Maximum ${maximum} seats allowed.`, type: 'value_error' }
        : null);
  return issue ? fail([{ ...issue, loc: ['body', 'seats'] }]) : seats;
}

export async function priceCheckout(
  db: Client,
  tax: TaxCalculator,
  inputs: CheckoutInputs,
  options: PricingOptions,
): Promise<PricedCheckout> {
  const product = await findProduct(db, inputs.productId, [inputs.organizationId]);
  if (!product || !inputs.productIds.includes(product.id)) {
    return fail([{ loc: ['body', 'product_id'], msg: 'Product not found.', type: 'value_error' }]);
  }
  const isRecurring = product.recurringInterval !== null;
  const priceRow = inputs.productPriceId
    ? await findCurrentPriceOfProduct(db, product.id, inputs.productPriceId)
    : (selectCheckoutPrice(product.prices) ?? (isRecurring ? (product.prices[0] ?? null) : null));
  if (!priceRow) {
    return fail([
      {
        loc: ['body', inputs.productPriceId ? 'product_price_id' : 'products'],
        msg: inputs.productPriceId ? 'Price not found.' : 'This product has no price a checkout can charge.',
        type: 'value_error',
      },
    ]);
  }
  const type = priceType(priceRow.amountType);
  const price = type.checkout.price(priceRow);
  if (type.billing === 'in_arrears' && !isRecurring) {
    return fail([
      {
        loc: ['body', 'product_price_id'],
        msg: 'A metered price is billed for usage and cannot be bought on its own.',
        type: 'value_error',
      },
    ]);
  }
  const seats = checkoutSeats(type, price, inputs);
  const requestedAmount = type.checkout.takesBuyerAmount ? inputs.requestedAmount : null;
  if (requestedAmount !== null) {
    const issue = customAmountIssue(price, requestedAmount);
    if (issue) fail([issue]);
  }

  let discountTerms: Parameters<typeof checkoutSubtotals>[0]['discount'] = null;
  const currency = type.checkout.currency(price);
  if (inputs.discountId) {
    const discount = await findDiscountOfOrganization(db, inputs.organizationId, inputs.discountId);
    const applicability = discount
      ? discountApplicability(
          {
            type: discount.type as DiscountType,
            currency: discount.currency,
            duration: discount.duration as DiscountDuration,
            startsAt: discount.startsAt,
            endsAt: discount.endsAt,
            maxRedemptions: discount.maxRedemptions,
            productIds: discount.products.map(({ productId }) => productId),
          },
          {
            productId: product.id,
            currency,
            isRecurring,
            now: options.now,
            // Its own redemption does not make the discount unavailable to the checkout holding it.
            redemptionsCount: discount.redemptionsCount - (inputs.discountHeld ? 1 : 0),
          },
        )
      : ({ isApplicable: false, message: 'Discount not found.' } as const);
    if (applicability.isApplicable && discount) {
      discountTerms = {
        type: discount.type as DiscountType,
        amount: discount.amount,
        currency: discount.currency,
        basisPoints: discount.basisPoints,
      };
    } else if ((options.failOnInapplicableDiscount || options.strict) && !applicability.isApplicable) {
      const field = options.failOnInapplicableDiscount ?? (discount?.code ? 'discount_code' : 'discount_id');
      fail([
        {
          loc: ['body', field],
          msg: applicability.message,
          type: 'value_error',
        },
      ]);
    }
  }

  const subtotals = checkoutSubtotals({
    price,
    requestedAmount,
    seats,
    discount: discountTerms,
    isRecurring,
  });
  const quote =
    subtotals.isPaymentFormRequired && inputs.billingAddress?.country
      ? await tax.quote({
          amount: subtotals.netAmount,
          currency: subtotals.currency,
          billingAddress: inputs.billingAddress,
          taxId: inputs.taxId,
          productId: product.id,
          idempotencyKey: `checkout:${inputs.checkoutId ?? 'new'}:tax:${subtotals.netAmount}:${inputs.billingAddress.country}:${inputs.billingAddress.postal_code ?? ''}`,
        })
      : null;
  const amounts = withTax(subtotals, quote?.amount ?? null);
  const billingAddressFields = customerBillingAddressFields({
    country: inputs.billingAddress?.country ?? null,
    requireBillingAddress: inputs.requireBillingAddress,
    isBusinessCustomer: inputs.isBusinessCustomer,
  });

  const customFields = validateCustomFieldData(
    product.customFields.map(({ customField, required }) => ({
      field: customFieldView(customField),
      required,
    })),
    inputs.customFieldData,
  );
  const issues = options.strict
    ? customFields.issues
    : customFields.issues.filter((issue) => issue.type !== 'missing');
  if (options.strict) {
    const needsAddress = isBillingAddressRequired({
      isPaymentFormRequired: amounts.isPaymentFormRequired,
      requireBillingAddress: inputs.requireBillingAddress,
      isBusinessCustomer: inputs.isBusinessCustomer,
    });
    if (needsAddress) issues.push(...billingAddressIssues(inputs.billingAddress, billingAddressFields));
    const chargeIssue = minimumChargeIssue(amounts.totalAmount, amounts.currency);
    if (chargeIssue) issues.push({ loc: ['body', 'amount'], msg: chargeIssue, type: 'value_error' });
  }
  if (issues.length > 0) fail(issues);

  return {
    productId: product.id,
    productPriceId: priceRow.id,
    currency: amounts.currency,
    amount: amounts.amount,
    seats,
    discountId: inputs.discountId,
    discountAmount: amounts.discountAmount,
    netAmount: amounts.netAmount,
    taxAmount: amounts.taxAmount,
    taxReference: quote?.reference ?? null,
    totalAmount: amounts.totalAmount,
    customFieldData: customFields.value,
    billingAddressFields,
    isDiscountApplicable: amounts.isDiscountApplicable,
    isFreeProductPrice: amounts.isFreeProductPrice,
    isPaymentRequired: amounts.isPaymentRequired,
    isPaymentSetupRequired: amounts.isPaymentSetupRequired,
    isPaymentFormRequired: amounts.isPaymentFormRequired,
  };
}
