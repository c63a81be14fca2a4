// A fixed price: the same amount every time (once, or every period of a plan). Pure.
import { z } from 'zod';
import { DEFAULT_CURRENCY } from './limits.js';
import { currencySchema, priceAmountSchema } from './schemas.js';
import { definePriceType, NO_COLUMNS, perInterval } from './strategy.js';

export const fixedPrice = definePriceType({
  amountType: 'fixed',
  schemas: {
    view: { price_currency: z.string(), price_amount: z.number().int() },
    create: { price_amount: priceAmountSchema, price_currency: currencySchema },
  },
  view: (row) => ({ price_currency: row.priceCurrency, price_amount: row.priceAmount }),
  columns: (price) => ({
    ...NO_COLUMNS,
    priceCurrency: price.price_currency,
    priceAmount: price.price_amount,
  }),
  issues: () => [],
  meterId: () => null,
  billing: 'in_advance',
  checkout: {
    price: (row) => ({
      amountType: 'fixed',
      currency: row.priceCurrency ?? DEFAULT_CURRENCY,
      priceAmount: row.priceAmount ?? 0,
    }),
    currency: (price) => price.currency.toLowerCase(),
    takesBuyerAmount: false,
    buyerAmount: () => null,
    amountIssue: () => null,
    takesSeats: false,
    seatRange: () => null,
    defaultSeats: () => null,
    seatsIssue: () => null,
    amount: (price) => price.priceAmount,
    isFree: false,
  },
  cycle: {
    usage: () => null,
    planChange: (row) => ({ fee: row.priceAmount ?? 0 }),
    currency: (row) => row.priceCurrency?.toLowerCase() ?? null,
  },
  words: {
    label: 'Fixed price',
    terms: (price, format) =>
      `${format.money(price.price_amount, price.price_currency)}${perInterval(price.recurring_interval)}`,
    plan: (price, interval, format, count) =>
      `${format.money(price.price_amount, price.price_currency)}${perInterval(interval, count)}`,
    checkout: (price, format) => format.money(price.price_amount, price.price_currency),
    isPerPeriod: true,
    seatMath: () => [],
  },
  editor: {
    fields: [
      { draft: 'amount', wire: 'price_amount', label: 'amount (USD)', kind: 'dollars', required: true },
    ],
  },
});
