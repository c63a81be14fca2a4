// The sandbox card form's only knowledge of cards: which of Stripe's published test numbers stands
// for which test PaymentMethod (`pm_card_…`), the id the sandbox processor accepts as a
// `confirmation_token_id`. Numbers outside this table are refused before anything is sent.

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

export type TestCard = { paymentMethodId: string; brand: CardBrand };

const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  '4242424242424242': { paymentMethodId: 'pm_card_visa', brand: 'visa' },
  '4000056655665556': { paymentMethodId: 'pm_card_visa_debit', brand: 'visa' },
  '5555555555554444': { paymentMethodId: 'pm_card_mastercard', brand: 'mastercard' },
  '378282246310005': { paymentMethodId: 'pm_card_amex', brand: 'amex' },
  '6011111111111117': { paymentMethodId: 'pm_card_discover', brand: 'discover' },
  '4000000000000002': { paymentMethodId: 'pm_card_chargeDeclined', brand: 'visa' },
  '4000000000009995': { paymentMethodId: 'pm_card_chargeDeclinedInsufficientFunds', brand: 'visa' },
  '4000000000009987': { paymentMethodId: 'pm_card_chargeDeclinedLostCard', brand: 'visa' },
  '4000000000009979': { paymentMethodId: 'pm_card_chargeDeclinedStolenCard', brand: 'visa' },
  '4000000000000069': { paymentMethodId: 'pm_card_chargeDeclinedExpiredCard', brand: 'visa' },
  '4000000000000127': { paymentMethodId: 'pm_card_chargeDeclinedIncorrectCvc', brand: 'visa' },
  '4000000000000119': { paymentMethodId: 'pm_card_chargeDeclinedProcessingError', brand: 'visa' },
};

/** The digits of what was typed: buyers group card numbers with spaces or dashes. */
export function cardDigits(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export function isLuhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The brand by its number's prefix (IIN ranges), for the label beside the field. */
export function cardBrand(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

export function findTestCard(input: string): TestCard | null {
  return TEST_CARDS[cardDigits(input)] ?? null;
}
