import type { z } from 'zod';
import type { taxIdFormatSchema } from './schemas.js';

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
