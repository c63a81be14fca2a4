import type { CardBrand } from '../../domain/payments/test-cards';

/**
 * A card's brand as printed on it: the checkout's card form, the portal's saved cards and the
 * dashboard's order timeline name cards with it.
 */
export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};
