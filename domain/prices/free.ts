// A free price: nothing to pay, ever; a plan at this price saves no card. Pure.
import { DEFAULT_CURRENCY } from './limits.js';
import { definePriceType, NO_COLUMNS } from './strategy.js';

export const freePrice = definePriceType({
  amountType: 'free',
  schemas: { view: {}, create: {} },
  view: () => ({}),
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
  },
  editor: { fields: [] },
});
