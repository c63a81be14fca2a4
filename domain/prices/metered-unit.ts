// A metered price: an amount per unit a meter counts, billed after each period of a plan for the
// period's usage (domain/usage/rules.ts `meteredLineCharge`), capped per period if the seller
// says so. Never bought on its own. Pure.
import { z } from 'zod';
import { minorUnitsSchema, textSchema } from '../platform/schemas.js';
import { DEFAULT_CURRENCY, MAX_PRICE_AMOUNT, normalizeUnitAmount, UNIT_AMOUNT_DECIMALS } from './limits.js';
import { describeMeteredPrice } from './metered-words.js';
import { currencySchema } from './schemas.js';
import { definePriceType, NO_COLUMNS } from './strategy.js';

const unitAmountSchema = z.union([z.number(), textSchema({ max: 64 })]).transform((value, ctx) => {
  const normalized = normalizeUnitAmount(value);
  if (normalized === null) {
    ctx.addIssue({
      code: 'custom',
      message: `Expected a positive amount in cents below 100000 with at most ${UNIT_AMOUNT_DECIMALS} decimals (0.5 for half a cent); more decimals are refused, not rounded.`,
    });
    return z.NEVER;
  }
  return normalized;
});

export const meteredUnitPrice = definePriceType({
  amountType: 'metered_unit',
  schemas: {
    view: {
      price_currency: z.string(),
      unit_amount: z.string(),
      cap_amount: z.number().int().nullable(),
      meter_id: z.uuid(),
      meter: z.object({
        id: z.uuid(),
        name: z.string(),
        unit: z.enum(['scalar', 'token', 'custom']),
        custom_label: z.string().nullable(),
        custom_multiplier: z.number().int().nullable(),
      }),
    },
    create: {
      meter_id: z.uuid(),
      price_currency: currencySchema,
      unit_amount: unitAmountSchema,
      cap_amount: minorUnitsSchema().min(0).max(MAX_PRICE_AMOUNT).nullable().optional(),
    },
  },
  view: (row) => ({
    price_currency: row.priceCurrency,
    unit_amount: normalizeUnitAmount(row.unitAmount?.toFixed() ?? '') ?? row.unitAmount?.toFixed(),
    cap_amount: row.capAmount,
    meter_id: row.meterId,
    // Meters show plain numbers until display units are built (domain/meters/schemas.ts).
    meter: row.meter && { ...row.meter, unit: 'scalar', custom_label: null, custom_multiplier: null },
  }),
  columns: (price) => ({
    ...NO_COLUMNS,
    priceCurrency: price.price_currency,
    unitAmount: price.unit_amount,
    capAmount: price.cap_amount ?? null,
    meterId: price.meter_id,
  }),
  issues: () => [],
  meterId: (price) => price.meter_id,
  billing: 'in_arrears',
  checkout: {
    price: (row) => ({ amountType: 'metered_unit', currency: row.priceCurrency ?? DEFAULT_CURRENCY }),
    currency: (price) => price.currency.toLowerCase(),
    takesBuyerAmount: false,
    buyerAmount: () => null,
    amountIssue: () => null,
    takesSeats: false,
    seatRange: () => null,
    defaultSeats: () => null,
    seatsIssue: () => null,
    amount: (_price, _requested, isRecurring) => {
      // A plan's usage is billed at the end of each period, never up front.
      if (!isRecurring) throw new RangeError('a metered price cannot be bought once, only as part of a plan');
      return 0;
    },
    isFree: false,
  },
  cycle: {
    usage: (row) =>
      row.meter && row.unitAmount
        ? { meterId: row.meter.id, unitAmount: row.unitAmount.toFixed(), capAmount: row.capAmount ?? null }
        : null,
    // Billed for usage, so a plan change neither credits nor debits it: its amount is 0.
    planChange: () => ({ fee: 0 }),
    currency: (row) => row.priceCurrency?.toLowerCase() ?? null,
  },
  words: {
    label: 'Metered, per unit',
    terms: (price, format) =>
      `${describeMeteredPrice(price, price.recurring_interval, format.locale)}, billed by usage`,
    plan: () => null,
    checkout: (price) => `Billed by usage of ${price.meter.name}`,
    isPerPeriod: false,
    seatMath: () => [],
  },
  editor: {
    fields: [
      {
        draft: 'unitAmount',
        wire: 'unit_amount',
        label: 'unit amount (cents)',
        kind: 'cents',
        required: true,
      },
      { draft: 'meterId', wire: 'meter_id', label: 'meter', kind: 'meter', required: true },
      { draft: 'cap', wire: 'cap_amount', label: 'cap (USD)', kind: 'dollars', required: false },
    ],
  },
});
