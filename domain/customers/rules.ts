import type { z } from 'zod';
import type { addressSchema } from '../addresses/schemas.js';
import { TAX_ID_FORMATS, type taxIdFormatSchema } from './schemas.js';

type TaxIdFormat = z.infer<typeof taxIdFormatSchema>;

/**
 * Formats whose shape is well known are checked; the others only for plausible characters. (Polar
 * validates with python-stdnum; checksums are not reproduced here.)
 */
const TAX_ID_PATTERNS: Partial<Record<TaxIdFormat, RegExp>> = {
  eu_vat:
    /^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)[0-9A-Z]{2,13}$/,
  eu_oss_vat: /^EU[0-9]{9}$/,
  gb_vat: /^GB([0-9]{9}|[0-9]{12}|GD[0-9]{3}|HA[0-9]{3})$/,
  us_ein: /^[0-9]{9}$/,
  ca_bn: /^[0-9]{9}$/,
  au_abn: /^[0-9]{11}$/,
  in_gst: /^[0-9]{2}[A-Z0-9]{13}$/,
  ch_vat: /^CHE[0-9]{9}(MWST|TVA|IVA)$/,
  no_vat: /^[0-9]{9}MVA$/,
  br_cnpj: /^[0-9]{14}$/,
  br_cpf: /^[0-9]{11}$/,
};

/** Upper-cased, without the spaces, dots and dashes people type into tax numbers. */
export function normalizeTaxId(value: string): string {
  return value.replace(/[\s.\-/]/g, '').toUpperCase();
}

/** The normalized value when it fits its format, else null. */
export function validateTaxId(value: string, format: TaxIdFormat): string | null {
  const normalized = normalizeTaxId(value);
  if (!/^[0-9A-Z]{2,32}$/.test(normalized)) return null;
  const pattern = TAX_ID_PATTERNS[format];
  return pattern && !pattern.test(normalized) ? null : normalized;
}

/**
 * The format of a tax number a customer typed without naming one (the portal): the first format
 * with a pattern the number fits, the EU's VAT first for EU addresses. Null when none fits.
 */
export function taxIdFormatOf(
  value: string,
  formats: readonly TaxIdFormat[],
  country: string | null,
): TaxIdFormat | null {
  const patterned = formats.filter((format) => TAX_ID_PATTERNS[format]);
  const ordered = country && EU_COUNTRIES.has(country) ? ['eu_vat' as TaxIdFormat, ...patterned] : patterned;
  return ordered.find((format) => validateTaxId(value, format) !== null) ?? null;
}

const EU_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

type Address = z.infer<typeof addressSchema>;

const ADDRESS_FIELDS = ['line1', 'line2', 'postal_code', 'city', 'state', 'country'] as const;

const sameAddress = (a: Address | null, b: Address | null) =>
  a === null || b === null
    ? a === b
    : ADDRESS_FIELDS.every((field) => (a[field] ?? null) === (b[field] ?? null));

/** What a customer's record holds that a purchase may fill in. */
export type PurchaseDetails = {
  name: string | null;
  billingAddress: Address | null;
  /** `[value, format]`, as the customer's record keeps it. */
  taxId: readonly [string, TaxIdFormat] | null;
};

/**
 * The tax number a buyer typed at checkout (no format on the wire) as a customer keeps it: its
 * normalized value and the format it fits, the EU's VAT first for an EU address. Null when it fits
 * none (nor would Stripe Tax have used it: `stripeTaxIdOf` only sends shapes it is sure of).
 */
export function purchaseTaxId(typed: string | null, country: string | null): PurchaseDetails['taxId'] {
  if (!typed) return null;
  const format = taxIdFormatOf(typed, TAX_ID_FORMATS, country);
  const value = format ? validateTaxId(typed, format) : null;
  return format && value ? [value, format] : null;
}

/**
 * What a successful checkout writes onto the customer it went to, as Polar's does on completion:
 * the billing address and tax id it collected (the customer's renewals are taxed by them), and its
 * name only when the customer has none (a card's holder may pay for a company). What the checkout
 * did not collect is never erased. Null when nothing changes.
 */
export function purchaseCustomerChanges(
  current: PurchaseDetails,
  purchase: PurchaseDetails,
): Partial<PurchaseDetails> | null {
  const changes: Partial<PurchaseDetails> = {};
  if (current.name === null && purchase.name !== null) changes.name = purchase.name;
  if (purchase.billingAddress !== null && !sameAddress(current.billingAddress, purchase.billingAddress)) {
    changes.billingAddress = purchase.billingAddress;
  }
  if (
    purchase.taxId !== null &&
    (current.taxId === null || current.taxId.some((part, index) => part !== purchase.taxId![index]))
  ) {
    changes.taxId = purchase.taxId;
  }
  return Object.keys(changes).length > 0 ? changes : null;
}
