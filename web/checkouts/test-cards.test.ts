import { describe, expect, it } from '@jest/globals';
import { cardBrand, cardDigits, findTestCard, isLuhnValid } from './test-cards';

describe('isLuhnValid', () => {
  it('accepts test numbers and refuses a changed digit or a wrong length', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('378282246310005')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('42424242')).toBe(false);
    expect(isLuhnValid('4242 4242 4242 4242')).toBe(false);
  });
});

describe('cardBrand', () => {
  it('reads the brand from the prefix', () => {
    expect(cardBrand('4000000000000002')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('2223003122003222')).toBe('mastercard');
    expect(cardBrand('371449635398431')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('9999')).toBe('unknown');
  });
});

describe('findTestCard', () => {
  it('maps typed test numbers to their test PaymentMethod', () => {
    expect(cardDigits('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(findTestCard('4242 4242 4242 4242')).toEqual({ paymentMethodId: 'pm_card_visa', brand: 'visa' });
    expect(findTestCard('4000 0000 0000 0002')?.paymentMethodId).toBe('pm_card_chargeDeclined');
    expect(findTestCard('4000 0000 0000 9995')?.paymentMethodId).toBe(
      'pm_card_chargeDeclinedInsufficientFunds',
    );
  });

  it('knows no other number, even a valid one', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(findTestCard('4111111111111111')).toBeNull();
  });
});
