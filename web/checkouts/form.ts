// The hosted checkout form's rules, without React: what the buyer typed → the update the API
// takes, which of it changed since the last PATCH, where each 422 issue belongs, what must be
// filled before paying, and where to go after success.

import { subdivisionLabel, subdivisionsOf } from '../../domain/addresses/rules';
import { priceType } from '../../domain/prices/registry';
import type { AmountBounds, SeatRange } from '../../domain/prices/strategy';
import type { ValidationIssue } from '../api';
import { decimalAmount } from '../../domain/money/rules';
import { parseMajorInput, readMajorInput } from '../money/format';
import type { CheckoutUpdate } from './queries';
import type { CheckoutPublic as WireCheckout } from '../../domain/checkouts/schemas';

/** What the form rules read of a checkout. */
export type FormCheckout = Pick<
  WireCheckout,
  | 'id'
  | 'url'
  | 'success_url'
  | 'amount'
  | 'seats'
  | 'min_seats'
  | 'max_seats'
  | 'currency'
  | 'product_price'
  | 'customer_email'
  | 'customer_name'
  | 'customer_billing_address'
  | 'custom_field_data'
  | 'attached_custom_fields'
  | 'customer_billing_address_fields'
  | 'is_payment_form_required'
  | 'require_billing_address'
>;

export type AddressField = keyof WireCheckout['customer_billing_address_fields'];

export const ADDRESS_FIELDS = ['country', 'line1', 'line2', 'postal_code', 'city', 'state'] as const;

export type CustomFieldInput = string | boolean;

export type CheckoutFormValues = {
  email: string;
  name: string;
  address: Record<AddressField, string>;
  /** Pay-what-you-want amount as typed, in major units. */
  amount: string;
  /** The seats as typed (seat-based prices). */
  seats: string;
  customFields: Record<string, CustomFieldInput>;
};

/** Keys of `CheckoutUpdate` the form sends; errors are keyed by the same dotted paths. */
type UpdateKey = keyof CheckoutUpdate;

const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The bounds of the amount the buyer chooses; null when the checkout's price takes none. */
export function buyerAmountBounds(checkout: Pick<FormCheckout, 'product_price'>): AmountBounds | null {
  const price = checkout.product_price;
  return priceType(price.amount_type).checkout.buyerAmount(price);
}

/**
 * The seats the buyer may choose: the price's, narrowed by the checkout's own bounds; null when the
 * checkout's price is not sold by the seat.
 */
export function buyerSeatRange(
  checkout: Pick<FormCheckout, 'product_price' | 'min_seats' | 'max_seats'>,
): SeatRange | null {
  const price = checkout.product_price;
  const range = priceType(price.amount_type).checkout.seatRange(price);
  if (!range) return null;
  const maximum = [range.maximum, checkout.max_seats ?? null].filter((bound) => bound !== null);
  return {
    minimum: Math.max(range.minimum, checkout.min_seats ?? 1),
    maximum: maximum.length > 0 ? Math.min(...maximum) : null,
  };
}

/** The seats typed, when they are a number of seats the buyer may choose; else null. */
export function chosenSeats(values: Pick<CheckoutFormValues, 'seats'>, range: SeatRange): number | null {
  const typed = values.seats.trim();
  if (!/^\d{1,7}$/.test(typed)) return null;
  const seats = Number(typed);
  if (seats < range.minimum || (range.maximum !== null && seats > range.maximum)) return null;
  return seats;
}

/** "Choose from 3 to 40 seats.", or "at least 3" without an end. */
export function seatRangeWords(range: SeatRange): string {
  return range.maximum === null
    ? `Choose at least ${range.minimum} ${range.minimum === 1 ? 'seat' : 'seats'}.`
    : `Choose from ${range.minimum} to ${range.maximum} seats.`;
}

export function initialValues(checkout: FormCheckout): CheckoutFormValues {
  const address = checkout.customer_billing_address;
  return {
    email: checkout.customer_email ?? '',
    name: checkout.customer_name ?? '',
    address: {
      country: address?.country ?? '',
      line1: address?.line1 ?? '',
      line2: address?.line2 ?? '',
      postal_code: address?.postal_code ?? '',
      city: address?.city ?? '',
      state: formState(address?.country ?? '', address?.state ?? ''),
    },
    amount: buyerAmountBounds(checkout) ? decimalAmount(checkout.amount, checkout.currency) : '',
    seats: checkout.seats == null ? '' : String(checkout.seats),
    customFields: Object.fromEntries(
      checkout.attached_custom_fields.map(({ custom_field: field }) => {
        const stored = checkout.custom_field_data?.[field.slug];
        if (field.type === 'checkbox') return [field.slug, stored === true];
        return [field.slug, stored === null || stored === undefined ? '' : String(stored)];
      }),
    ),
  };
}

/** The state as the form's list holds it: `US-NY` (as Polar stores it) is the option `NY`. */
function formState(country: string, state: string): string {
  return subdivisionsOf(country) ? state.replace(new RegExp(`^${country}-`, 'i'), '') : state;
}

/** Whether the buyer chose another country than the server holds: which fields show depends on it. */
export function countryChanged(values: CheckoutFormValues, accepted: CheckoutUpdate | null): boolean {
  const held = accepted?.customer_billing_address?.country ?? '';
  return values.address.country.trim().toUpperCase() !== held.toUpperCase();
}

function orNull(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The custom amount in minor units when it is one the price allows, else null. */
export function customAmount(values: CheckoutFormValues, checkout: FormCheckout): number | null {
  const bounds = buyerAmountBounds(checkout);
  if (!bounds) return null;
  const amount = parseMajorInput(values.amount, checkout.currency);
  if (amount === null) return null;
  if (bounds.minimum !== null && amount < bounds.minimum) return null;
  if (bounds.maximum !== null && amount > bounds.maximum) return null;
  return amount;
}

function customFieldValue(
  checkout: FormCheckout,
  slug: string,
  input: CustomFieldInput | undefined,
): string | number | boolean | null {
  const attached = checkout.attached_custom_fields.find(({ custom_field: field }) => field.slug === slug);
  if (!attached || input === undefined) return null;
  if (attached.custom_field.type === 'checkbox') return input === true;
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') return null;
  if (attached.custom_field.type === 'number') {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  return text;
}

/**
 * The form as an update. For the PATCHes sent while the buyer types (`forConfirm` false) values
 * that cannot be right yet are left out, so a half-typed email does not hold back the tax that a
 * new country brings; the confirmation sends everything and lets the server judge.
 */
export function toUpdate(
  values: CheckoutFormValues,
  checkout: FormCheckout,
  { forConfirm }: { forConfirm: boolean },
): CheckoutUpdate {
  const update: CheckoutUpdate = {};
  const email = orNull(values.email);
  if (forConfirm || email === null || PLAUSIBLE_EMAIL.test(email)) update.customer_email = email;
  update.customer_name = orNull(values.name);
  const country = values.address.country.trim().toUpperCase();
  update.customer_billing_address =
    country === ''
      ? null
      : {
          country,
          line1: orNull(values.address.line1),
          line2: orNull(values.address.line2),
          postal_code: orNull(values.address.postal_code),
          city: orNull(values.address.city),
          state: orNull(values.address.state),
        };
  if (buyerAmountBounds(checkout)) {
    const amount = forConfirm
      ? parseMajorInput(values.amount, checkout.currency)
      : customAmount(values, checkout);
    if (amount !== null) update.amount = amount;
  }
  const seatRange = buyerSeatRange(checkout);
  if (seatRange) {
    // Seats out of range stay with the buyer (their field says why) until they are a choice.
    const seats = chosenSeats(values, seatRange);
    if (seats !== null) update.seats = seats;
  }
  if (checkout.attached_custom_fields.length > 0) {
    update.custom_field_data = Object.fromEntries(
      checkout.attached_custom_fields.map(({ custom_field: field }) => [
        field.slug,
        customFieldValue(checkout, field.slug, values.customFields[field.slug]),
      ]),
    );
  }
  return update;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What to PATCH: each field whose value differs from what the server last accepted, unless it is
 * exactly the value the server last refused (sending it again would only fail the same way and
 * take the other fields down with it).
 */
export function changedFields(
  current: CheckoutUpdate,
  accepted: CheckoutUpdate,
  refused: CheckoutUpdate,
): CheckoutUpdate {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(current) as UpdateKey[]) {
    const value = current[key];
    if (sameValue(value, accepted[key])) continue;
    if (key in refused && sameValue(value, refused[key])) continue;
    changed[key] = value;
  }
  return changed as CheckoutUpdate;
}

/** The top-level update keys that 422 issues point at (`["body", "customer_email"]` → customer_email). */
export function refusedKeys(issues: ValidationIssue[]): UpdateKey[] {
  return issues.map((issue) => issue.loc?.[1]).filter((key): key is UpdateKey => typeof key === 'string');
}

/** A field's key for error display: the issue's location after "body", dotted. */
export function issueKey(issue: ValidationIssue): string {
  const path = issue.loc ?? [];
  return (path[0] === 'body' ? path.slice(1) : path).map(String).join('.');
}

/** 422 issues as messages per field key; issues for fields the form does not show are `general`. */
export function issuesByField(
  issues: ValidationIssue[],
  shownKeys: ReadonlySet<string>,
): { fields: Record<string, string>; general: string[] } {
  const fields: Record<string, string> = {};
  const general: string[] = [];
  for (const issue of issues) {
    const key = issueKey(issue);
    const message = issue.msg ?? 'This value is not valid.';
    if (shownKeys.has(key) && !fields[key]) fields[key] = message;
    else if (!shownKeys.has(key)) general.push(key ? `${key}: ${message}` : message);
  }
  return { fields, general };
}

export const addressKey = (field: AddressField) => `customer_billing_address.${field}`;
export const customFieldKey = (slug: string) => `custom_field_data.${slug}`;

/** North American addresses read city, state, ZIP; elsewhere the postal code comes before the city. */
const NORTH_AMERICAN_ORDER = ['country', 'line1', 'line2', 'city', 'state', 'postal_code'] as const;

/**
 * Which address fields the form shows, in the order the buyer's country writes them: the server's
 * flags; line 2 goes with line 1.
 */
export function shownAddressFields(checkout: FormCheckout, country = ''): AddressField[] {
  const flags = checkout.customer_billing_address_fields;
  const order = subdivisionsOf(country) ? NORTH_AMERICAN_ORDER : ADDRESS_FIELDS;
  return order.filter((field) =>
    field === 'country' ? true : field === 'line2' ? flags.line1 || flags.line2 : flags[field],
  );
}

/** Paying needs the address (processor and tax); otherwise only when the seller asks for it. */
function isAddressRequired(checkout: FormCheckout): boolean {
  return checkout.is_payment_form_required || checkout.require_billing_address;
}

export function isAddressFieldRequired(checkout: FormCheckout, field: AddressField): boolean {
  if (field === 'country') return isAddressRequired(checkout);
  return field !== 'line2' && checkout.customer_billing_address_fields[field];
}

/** What the buyer must still fill before paying, per field key; empty when the form can go. */
export function missingFields(values: CheckoutFormValues, checkout: FormCheckout): Record<string, string> {
  const errors: Record<string, string> = {};
  const email = values.email.trim();
  if (!email) errors.customer_email = 'Enter your email address.';
  else if (!PLAUSIBLE_EMAIL.test(email)) errors.customer_email = 'Enter a valid email address.';
  if (checkout.is_payment_form_required && !values.name.trim()) errors.customer_name = 'Enter your name.';
  const hasAddress = isAddressRequired(checkout) || values.address.country.trim() !== '';
  for (const field of hasAddress ? shownAddressFields(checkout) : []) {
    if (isAddressFieldRequired(checkout, field) && !values.address[field].trim()) {
      errors[addressKey(field)] =
        field === 'country'
          ? 'Choose your country.'
          : field === 'state'
            ? `Choose your ${subdivisionLabel(values.address.country).toLowerCase()}.`
            : 'This field is required.';
    }
  }
  const amountBounds = buyerAmountBounds(checkout);
  if (amountBounds && customAmount(values, checkout) === null) {
    const bounds = [
      amountBounds.minimum === null
        ? null
        : `at least ${decimalAmount(amountBounds.minimum, checkout.currency)}`,
      amountBounds.maximum === null
        ? null
        : `at most ${decimalAmount(amountBounds.maximum, checkout.currency)}`,
    ].filter(Boolean);
    const inBounds = `Enter an amount${bounds.length ? ` of ${bounds.join(' and ')}` : ''}.`;
    // More decimals than the currency has is said as such: the amount is never rounded for the buyer.
    errors.amount = readMajorInput(values.amount, checkout.currency, inBounds).error ?? inBounds;
  }
  const seatRange = buyerSeatRange(checkout);
  if (seatRange && chosenSeats(values, seatRange) === null) errors.seats = seatRangeWords(seatRange);
  for (const { custom_field: field, required } of checkout.attached_custom_fields) {
    const value = values.customFields[field.slug];
    const isEmpty = field.type === 'checkbox' ? value !== true : typeof value !== 'string' || !value.trim();
    if (required && isEmpty) errors[customFieldKey(field.slug)] = 'This field is required.';
  }
  return errors;
}

/**
 * Where the buyer goes after paying. `{CHECKOUT_ID}` is filled in. A success URL under the
 * checkout's own URL is this app's confirmation page (the default), which is where the buyer
 * already is: it is not followed.
 */
export function resolveSuccessUrl(checkout: Pick<FormCheckout, 'id' | 'url' | 'success_url'>): {
  url: string;
  isInternal: boolean;
} {
  const url = checkout.success_url.replaceAll('{CHECKOUT_ID}', encodeURIComponent(checkout.id));
  return { url, isInternal: url.startsWith(checkout.url) };
}
