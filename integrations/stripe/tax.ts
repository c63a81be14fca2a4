// Stripe Tax as the tax calculator, when the Stripe processor is on: one Tax Calculation per
// checkout state (the caller's idempotency key and what is sent), whose id is kept as the quote's
// reference. The buyer's tax id goes along when its kind is certain (`stripeTaxIdOf`).
import { createHash } from 'node:crypto';
import Stripe from 'stripe';
import { normalizeTaxId } from '../../domain/customers/rules.js';
import type { TaxCalculator, TaxQuote, TaxQuoteInput } from '../../domain/tax/calculator.js';
import { toPaymentProcessorError } from './processor.js';

type StripeTaxId = Stripe.Tax.CalculationCreateParams.CustomerDetails.TaxId;

/**
 * The shape of each EU member state's VAT number after its prefix (the formats VIES checks), by
 * billing country. Greece's prefix is EL, not its country code.
 */
const EU_VAT_NUMBERS: Readonly<Record<string, { prefix: string; number: RegExp }>> = {
  AT: { prefix: 'AT', number: /^U\d{8}$/ },
  BE: { prefix: 'BE', number: /^[01]\d{9}$/ },
  BG: { prefix: 'BG', number: /^\d{9,10}$/ },
  CY: { prefix: 'CY', number: /^\d{8}[A-Z]$/ },
  CZ: { prefix: 'CZ', number: /^\d{8,10}$/ },
  DE: { prefix: 'DE', number: /^\d{9}$/ },
  DK: { prefix: 'DK', number: /^\d{8}$/ },
  EE: { prefix: 'EE', number: /^\d{9}$/ },
  ES: { prefix: 'ES', number: /^[0-9A-Z]\d{7}[0-9A-Z]$/ },
  FI: { prefix: 'FI', number: /^\d{8}$/ },
  FR: { prefix: 'FR', number: /^[0-9A-HJ-NP-Z]{2}\d{9}$/ },
  GR: { prefix: 'EL', number: /^\d{9}$/ },
  HR: { prefix: 'HR', number: /^\d{11}$/ },
  HU: { prefix: 'HU', number: /^\d{8}$/ },
  IE: { prefix: 'IE', number: /^\d[0-9A-Z+*]\d{5}[A-W][A-I]?$/ },
  IT: { prefix: 'IT', number: /^\d{11}$/ },
  LT: { prefix: 'LT', number: /^(\d{9}|\d{12})$/ },
  LU: { prefix: 'LU', number: /^\d{8}$/ },
  LV: { prefix: 'LV', number: /^\d{11}$/ },
  MT: { prefix: 'MT', number: /^\d{8}$/ },
  NL: { prefix: 'NL', number: /^\d{9}B\d{2}$/ },
  PL: { prefix: 'PL', number: /^\d{10}$/ },
  PT: { prefix: 'PT', number: /^\d{9}$/ },
  RO: { prefix: 'RO', number: /^\d{2,10}$/ },
  SE: { prefix: 'SE', number: /^\d{10}01$/ },
  SI: { prefix: 'SI', number: /^\d{8}$/ },
  SK: { prefix: 'SK', number: /^\d{10}$/ },
};

/** UK VAT numbers; Northern Ireland's (XI) are EU VAT numbers for goods. */
const UK_VAT_NUMBER = /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/;

/**
 * The buyer's tax id as Stripe Tax takes it, when the billing country and the number's shape leave
 * no doubt which kind it is: an EU VAT number with its country's prefix (`eu_vat`), a UK one
 * (`gb_vat`, or `eu_vat` for Northern Ireland's XI), a Swiss (`ch_vat`), Norwegian (`no_vat`) or
 * Australian ABN (`au_abn`, 11 digits). Anything else is not sent: a guessed type could make Stripe
 * refuse the calculation or treat a consumer as a business.
 */
export function stripeTaxIdOf(country: string, taxId: string): StripeTaxId | null {
  const value = normalizeTaxId(taxId);
  const billing = country.toUpperCase();
  const eu = EU_VAT_NUMBERS[billing];
  if (eu) {
    return value.startsWith(eu.prefix) && eu.number.test(value.slice(2)) ? { type: 'eu_vat', value } : null;
  }
  switch (billing) {
    case 'GB':
      if (value.startsWith('GB') && UK_VAT_NUMBER.test(value.slice(2))) return { type: 'gb_vat', value };
      if (value.startsWith('XI') && UK_VAT_NUMBER.test(value.slice(2))) return { type: 'eu_vat', value };
      return null;
    case 'CH': {
      // Written as the Swiss register does (Stripe's example): CHE-123.456.789 MWST.
      const swiss = /^CHE(\d{3})(\d{3})(\d{3})(MWST|TVA|IVA)$/.exec(value);
      return swiss ? { type: 'ch_vat', value: `CHE-${swiss[1]}.${swiss[2]}.${swiss[3]} ${swiss[4]}` } : null;
    }
    case 'NO': {
      const norwegian = /^(?:NO)?(\d{9}MVA)$/.exec(value);
      return norwegian ? { type: 'no_vat', value: norwegian[1]! } : null;
    }
    case 'AU':
      return /^\d{11}$/.test(value) ? { type: 'au_abn', value } : null;
    default:
      return null;
  }
}

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

/** Tax ids Stripe refused (its format checks): the calculation is retried without them. */
function isTaxIdRefusal(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.code === 'tax_id_invalid' || (error.param?.startsWith('customer_details[tax_ids]') ?? false))
  );
}

export function createStripeTaxCalculator({ stripe }: { stripe: Stripe }): TaxCalculator {
  /**
   * Stripe refuses a key reused with other parameters. The caller's key names the checkout state;
   * the digest of what is sent makes it name these parameters exactly (the same address with a
   * tax id added, or a retry without it, is another calculation).
   */
  const calculate = (params: Stripe.Tax.CalculationCreateParams, idempotencyKey: string) =>
    stripe.tax.calculations.create(params, {
      idempotencyKey: `${idempotencyKey}:${createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 32)}`,
    });

  /** A business's tax id may make the sale B2B (a reverse charge) for Stripe Tax. */
  async function calculateWithTaxId(
    params: Stripe.Tax.CalculationCreateParams,
    taxId: StripeTaxId | null,
    idempotencyKey: string,
  ): Promise<Stripe.Tax.Calculation> {
    if (!taxId) return calculate(params, idempotencyKey);
    try {
      return await calculate(
        { ...params, customer_details: { ...params.customer_details, tax_ids: [taxId] } },
        idempotencyKey,
      );
    } catch (error) {
      // A number Stripe will not take is quoted as a consumer's purchase, not a failed checkout.
      if (!isTaxIdRefusal(error)) throw error;
      return calculate(params, idempotencyKey);
    }
  }

  return {
    name: 'stripe',
    async quote(input: TaxQuoteInput): Promise<TaxQuote | null> {
      const address = input.billingAddress;
      if (!address?.country) return null;
      // Nothing to tax, nothing to record: a free checkout makes no calculation.
      if (input.amount === 0) return { amount: 0, rateBasisPoints: null, reference: null };
      const params: Stripe.Tax.CalculationCreateParams = {
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
      };
      const taxId = input.taxId ? stripeTaxIdOf(address.country, input.taxId) : null;
      try {
        const calculation = await calculateWithTaxId(params, taxId, input.idempotencyKey);
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
