// A free price: nothing to pay, ever; a plan at this price saves no card. Pure.
import { z } from 'zod';
import { DEFAULT_CURRENCY, SUPPORTED_CURRENCIES } from './limits.js';
import { definePriceType, NO_COLUMNS } from './strategy.js';

export const freePrice = definePriceType({
  amountType: 'free',
  // Polar's current shape names a currency even for nothing to pay (0.48.1 requires it); a free
  // price has none of its own, so it shows the default the checkout charges in.
  schemas: {
    view: { price_currency: z.string() },
    // 0.48.1 may name the currency; nothing is charged in it, so only a supported one is checked.
    create: {
      price_currency: z
        .enum(SUPPORTED_CURRENCIES, { message: 'Currently, only usd is supported.' })
        .optional(),
    },
  },
  view: () => ({ price_currency: DEFAULT_CURRENCY }),
  columns: () => NO_COLUMNS,
  issues: () => [],
  meterId: () => null,
  billing: 'in_advance',
  checkout: {
    price: () => ({ amountType: 'free' }),
    currency: () => DEFAULT_CURRENCY,
    takesBuyerAmount: false,
    buyerAmount: () => null,
    amountIssue: () => null,
    takesSeats: false,
    seatRange: () => null,
    defaultSeats: () => null,
    seatsIssue: () => null,
    amount: () => 0,
    isFree: true,
  },
  cycle: {
    usage: () => null,
    planChange: () => ({ fee: 0 }),
    currency: () => null,
  },
  words: {
    label: 'Free',
    terms: () => 'Free',
    plan: () => 'Free',
    checkout: () => 'Free',
    isPerPeriod: false,
    seatMath: () => [],
  },
  editor: { fields: [] },
});
