// The wire pieces every price type builds on: currencies and amounts as a product create or update
// sends them, and the fields every price has when read. Pure.
import { z } from 'zod';
import { minorUnitsSchema } from '../platform/schemas.js';
import { MAX_PRICE_AMOUNT, MIN_PRICE_AMOUNT, SUPPORTED_CURRENCIES } from './limits.js';

const datetime = z.iso.datetime({ offset: true });

export const recurringIntervalSchema = z.enum(['month', 'year']);
export type RecurringInterval = z.infer<typeof recurringIntervalSchema>;
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
};

export const currencySchema = z
  .enum(SUPPORTED_CURRENCIES, { message: 'Currently, only usd is supported.' })
  .default(SUPPORTED_CURRENCIES[0]);
export const priceAmountSchema = minorUnitsSchema().min(MIN_PRICE_AMOUNT).max(MAX_PRICE_AMOUNT);
