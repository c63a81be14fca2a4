import type { Config } from '../config/config.js';
import type { TaxCalculator } from '../domain/tax/calculator.js';
import { noTax, rateTableTax } from '../domain/tax/rules.js';

/**
 * The deployment's tax calculator: Stripe Tax when the caller hands one in (the Stripe processor is
 * on), else the `TAX_RATES` table when configured, else no tax.
 */
export function createTaxCalculator(
  config: Pick<Config, 'TAX_RATES'>,
  stripeTax?: TaxCalculator,
): TaxCalculator {
  if (stripeTax) return stripeTax;
  if (config.TAX_RATES) return rateTableTax(config.TAX_RATES);
  return noTax;
}
