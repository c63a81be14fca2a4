import { describe, expect, it } from '@jest/globals';
import {
  TEST_CARDS,
  cardNumberError,
  cvcError,
  detectCardBrand,
  expiryError,
  isLuhnValid,
  normalizeCardNumber,
  testCardFor,
  testPaymentMethodFor,
  validateTestCardForm,
} from './test-cards.js';

const now = new Date('2026-11-22T10:00:00Z');

describe('TEST_CARDS', () => {
  it('holds only numbers that pass the Luhn check, are complete for their brand and appear once', () => {
    for (const card of TEST_CARDS) {
      expect({ number: card.number, luhn: isLuhnValid(card.number) }).toEqual({
        number: card.number,
        luhn: true,
      });
      expect({ number: card.number, brand: detectCardBrand(card.number) }).toEqual({
        number: card.number,
        brand: card.brand,
      });
      expect({ number: card.number, error: cardNumberError(card.number) }).toEqual({
        number: card.number,
        error: null,
      });
    }
    expect(new Set(TEST_CARDS.map((card) => card.number)).size).toBe(TEST_CARDS.length);
  });
});

describe('testPaymentMethodFor', () => {
  it.each([
    ['4242 4242 4242 4242', 'pm_card_visa'],
    ['4000 0000 0000 0002', 'pm_card_chargeDeclined'],
    ['4000 0000 0000 9995', 'pm_card_chargeDeclinedInsufficientFunds'],
    ['4000-0000-0000-0069', 'pm_card_chargeDeclinedExpiredCard'],
    ['4000000000000127', 'pm_card_chargeDeclinedIncorrectCvc'],
    ['4000000000000119', 'pm_card_chargeDeclinedProcessingError'],
    ['5555555555554444', 'pm_card_mastercard'],
    ['3782 822463 10005', 'pm_card_amex'],
    ['4000000000005126', 'pm_card_refundFail'],
    ['4000000000000259', 'pm_card_createDispute'],
  ])('maps %s to %s', (number, paymentMethodId) => {
    expect(testPaymentMethodFor(number)).toBe(paymentMethodId);
  });

  it('knows no PaymentMethod for a valid card number that is not a test card', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(testPaymentMethodFor('4111111111111111')).toBeNull();
  });
});

describe('testCardFor', () => {
  it("gives a PaymentMethod's first card, for brand and last four", () => {
    expect(testCardFor('pm_card_visa')).toMatchObject({ brand: 'visa', number: '4242424242424242' });
    expect(testCardFor('pm_card_amex')?.number.slice(-4)).toBe('0005');
    expect(testCardFor('pm_card_unknown')).toBeNull();
  });
});

describe('isLuhnValid', () => {
  it('accepts a correct check digit and refuses any other', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('79927398713')).toBe(true);
    expect(isLuhnValid('79927398710')).toBe(false);
  });

  it('refuses anything but digits', () => {
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('4242 4242 4242 4242')).toBe(false);
    expect(isLuhnValid('42424242424242a2')).toBe(false);
  });
});

describe('detectCardBrand', () => {
  it.each([
    ['4', 'visa'],
    ['51', 'mastercard'],
    ['2221', 'mastercard'],
    ['2720', 'mastercard'],
    ['34', 'amex'],
    ['37', 'amex'],
    ['6011', 'discover'],
    ['65', 'discover'],
    ['300', 'diners'],
    ['36', 'diners'],
    ['3528', 'jcb'],
    ['62', 'unionpay'],
  ])('reads %s as %s', (prefix, brand) => {
    expect(detectCardBrand(prefix)).toBe(brand);
  });

  it('knows no brand for other prefixes', () => {
    expect(detectCardBrand('2721')).toBeNull();
    expect(detectCardBrand('1234')).toBeNull();
    expect(detectCardBrand('')).toBeNull();
  });
});

describe('cardNumberError', () => {
  it('tells an incomplete number from an invalid one', () => {
    expect(cardNumberError('')).toBe('Your card number is incomplete.');
    expect(cardNumberError('4242 4242')).toBe('Your card number is incomplete.');
    expect(cardNumberError('4242 4242 4242 4241')).toBe('Your card number is invalid.');
    expect(cardNumberError('4242 4242 4242 424x')).toBe('Your card number is invalid.');
    // Amex numbers have 15 digits: a 16th makes it invalid, not merely long.
    expect(cardNumberError('3782822463100050')).toBe('Your card number is invalid.');
  });
});

describe('expiryError', () => {
  it('accepts this month and later, in MM/YY or MM/YYYY', () => {
    expect(expiryError('11/26', now)).toBeNull();
    expect(expiryError('12 / 2030', now)).toBeNull();
    expect(expiryError('1/27', now)).toBeNull();
  });

  it('refuses past dates, impossible months and partial input', () => {
    expect(expiryError('10/26', now)).toBe("Your card's expiration date is in the past.");
    expect(expiryError('12/25', now)).toBe("Your card's expiration year is in the past.");
    expect(expiryError('13/30', now)).toBe("Your card's expiration date is invalid.");
    expect(expiryError('00/30', now)).toBe("Your card's expiration date is invalid.");
    expect(expiryError('12/', now)).toBe("Your card's expiration date is incomplete.");
    expect(expiryError('', now)).toBe("Your card's expiration date is incomplete.");
    expect(expiryError('ab/cd', now)).toBe("Your card's expiration date is invalid.");
    expect(expiryError('12/76', now)).toBeNull();
    expect(expiryError('12/77', now)).toBe("Your card's expiration year is invalid.");
  });
});

describe('cvcError', () => {
  it('wants three digits, four for American Express', () => {
    expect(cvcError('123', 'visa')).toBeNull();
    expect(cvcError('1234', 'amex')).toBeNull();
    expect(cvcError('12', 'visa')).toBe("Your card's security code is incomplete.");
    expect(cvcError('123', 'amex')).toBe("Your card's security code is incomplete.");
    expect(cvcError('1234', 'visa')).toBe("Your card's security code is invalid.");
    expect(cvcError('12a', null)).toBe("Your card's security code is invalid.");
  });
});

describe('validateTestCardForm', () => {
  it('answers the test PaymentMethod, brand and last four of a complete test card', () => {
    expect(validateTestCardForm({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' }, now)).toEqual(
      {
        ok: true,
        paymentMethodId: 'pm_card_visa',
        brand: 'visa',
        last4: '4242',
        expiry: { month: 12, year: 2030 },
      },
    );
    expect(
      validateTestCardForm({ number: '4000 0000 0000 9995', expiry: '01/27', cvc: '999' }, now),
    ).toMatchObject({
      ok: true,
      paymentMethodId: 'pm_card_chargeDeclinedInsufficientFunds',
      expiry: { month: 1, year: 2027 },
    });
    // The expiry is kept as typed: 08/31 is August 2031, whatever the month it is saved in.
    expect(
      validateTestCardForm({ number: '5555 5555 5555 4444', expiry: '08 / 31', cvc: '123' }, now),
    ).toMatchObject({ ok: true, expiry: { month: 8, year: 2031 } });
  });

  it('reports every field that is wrong at once', () => {
    expect(validateTestCardForm({ number: '4242', expiry: '10/26', cvc: '' }, now)).toEqual({
      ok: false,
      errors: {
        number: 'Your card number is incomplete.',
        expiry: "Your card's expiration date is in the past.",
        cvc: "Your card's security code is incomplete.",
      },
    });
  });

  it('refuses a real-looking card that is not a test card: sandbox mode moves no money', () => {
    expect(validateTestCardForm({ number: '4111 1111 1111 1111', expiry: '12/30', cvc: '123' }, now)).toEqual(
      {
        ok: false,
        errors: {
          number: 'Sandbox mode accepts only Stripe test card numbers, such as 4242 4242 4242 4242.',
        },
      },
    );
  });
});

describe('normalizeCardNumber', () => {
  it('drops the spaces and dashes people group digits with', () => {
    expect(normalizeCardNumber(' 4242-4242 4242 4242 ')).toBe('4242424242424242');
  });
});
