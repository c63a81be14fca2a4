// The wire pieces every price type builds on: currencies and amounts as a product create or update
// sends them, and the fields every price has when read. Pure.
import { z } from 'zod';
import { minorUnitsSchema, offUntilBuilt } from '../platform/schemas.js';
import { TAX_BEHAVIORS } from '../tax/schemas.js';
import { MAX_PRICE_AMOUNT, MIN_PRICE_AMOUNT, SUPPORTED_CURRENCIES } from './limits.js';

const datetime = z.iso.datetime({ offset: true });

/** Polar's intervals; a product renews every `recurring_interval_count` of them. */
export const recurringIntervalSchema = z.enum(['day', 'week', 'month', 'year']);
export type RecurringInterval = z.infer<typeof recurringIntervalSchema>;
/** The most intervals one renewal may span (`recurring_interval_count`, Polar's bound). */
export const MAX_INTERVAL_COUNT = 999;
export const priceTypeSchema = z.enum(['one_time', 'recurring']);

/** What every price has on the wire, before `amount_type` and its type's own fields. */
export const priceCommonShape = {
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  is_archived: z.boolean(),
  product_id: z.uuid(),
  type: priceTypeSchema,
  recurring_interval: recurringIntervalSchema.nullable(),
  /** `catalog`: one of the product's own prices; `ad_hoc` (made for one checkout) is not built yet. */
  source: z.enum(['catalog', 'ad_hoc']),
  /** Null: the organization's `default_tax_behavior`. */
  tax_behavior: z.enum(TAX_BEHAVIORS).nullable(),
};

/** What every new price may send besides its type's own fields (@polar-sh/sdk@0.48.1). */
export const priceCreateCommonShape = {
  tax_behavior: offUntilBuilt(z.enum(TAX_BEHAVIORS), ['exclusive'], 'Tax-inclusive pricing'),
};

export const currencySchema = z
  .enum(SUPPORTED_CURRENCIES, { message: 'Currently, only usd is supported.' })
  .default(SUPPORTED_CURRENCIES[0]);
export const priceAmountSchema = minorUnitsSchema().min(MIN_PRICE_AMOUNT).max(MAX_PRICE_AMOUNT);
