// Stripe's test cards, for the sandbox's card form: the numbers Stripe documents for test mode, the
// test PaymentMethod each stands for, and the checks a card form makes before it submits. Pure and
// free of Node imports: the hosted checkout page imports this file.

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay';

export type TestCard = {
  /** Digits only. */
  number: string;
  brand: CardBrand;
  /** The test PaymentMethod Stripe accepts in place of this card (`pm_card_visa`). */
  paymentMethodId: string;
  /** What paying with it does, as shown beside the sandbox card form. */
  outcome: string;
};

/** In the order the sandbox card form lists them; a PaymentMethod's first number is its display card. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', paymentMethodId: 'pm_card_visa', outcome: 'Succeeds' },
  {
    number: '4000056655665556',
    brand: 'visa',
    paymentMethodId: 'pm_card_visa_debit',
    outcome: 'Succeeds (debit)',
  },
  {
    number: '5555555555554444',
    brand: 'mastercard',
    paymentMethodId: 'pm_card_mastercard',
    outcome: 'Succeeds',
  },
  {
    number: '2223003122003222',
    brand: 'mastercard',
    paymentMethodId: 'pm_card_mastercard',
    outcome: 'Succeeds (2-series)',
  },
  {
    number: '5200828282828210',
    brand: 'mastercard',
    paymentMethodId: 'pm_card_mastercard_debit',
    outcome: 'Succeeds (debit)',
  },
  {
    number: '5105105105105100',
    brand: 'mastercard',
    paymentMethodId: 'pm_card_mastercard_prepaid',
    outcome: 'Succeeds (prepaid)',
  },
  { number: '378282246310005', brand: 'amex', paymentMethodId: 'pm_card_amex', outcome: 'Succeeds' },
  { number: '371449635398431', brand: 'amex', paymentMethodId: 'pm_card_amex', outcome: 'Succeeds' },
  {
    number: '6011111111111117',
    brand: 'discover',
    paymentMethodId: 'pm_card_discover',
    outcome: 'Succeeds',
  },
  {
    number: '6011000990139424',
    brand: 'discover',
    paymentMethodId: 'pm_card_discover',
    outcome: 'Succeeds',
  },
  { number: '3056930009020004', brand: 'diners', paymentMethodId: 'pm_card_diners', outcome: 'Succeeds' },
  {
    number: '36227206271667',
    brand: 'diners',
    paymentMethodId: 'pm_card_diners',
    outcome: 'Succeeds (14 digits)',
  },
  { number: '3566002020360505', brand: 'jcb', paymentMethodId: 'pm_card_jcb', outcome: 'Succeeds' },
  {
    number: '6200000000000005',
    brand: 'unionpay',
    paymentMethodId: 'pm_card_unionpay',
    outcome: 'Succeeds',
  },
  {
    number: '4000000000000002',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclined',
    outcome: 'Declined (generic decline)',
  },
  {
    number: '4000000000009995',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedInsufficientFunds',
    outcome: 'Declined (insufficient funds)',
  },
  {
    number: '4000000000009987',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedLostCard',
    outcome: 'Declined (lost card)',
  },
  {
    number: '4000000000009979',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedStolenCard',
    outcome: 'Declined (stolen card)',
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedExpiredCard',
    outcome: 'Declined (expired card)',
  },
  {
    number: '4000000000000127',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedIncorrectCvc',
    outcome: 'Declined (incorrect CVC)',
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedProcessingError',
    outcome: 'Declined (processing error)',
  },
  {
    number: '4100000000000019',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeDeclinedFraudulent',
    outcome: 'Declined (fraudulent)',
  },
  {
    number: '4000000000006975',
    brand: 'visa',
    paymentMethodId: 'pm_card_visa_chargeDeclinedVelocityLimitExceeded',
    outcome: 'Declined (velocity limit exceeded)',
  },
  {
    number: '4000002760003184',
    brand: 'visa',
    paymentMethodId: 'pm_card_authenticationRequired',
    outcome: 'Asks for 3-D Secure authentication; succeeds once authenticated',
  },
  {
    number: '4000000000003220',
    brand: 'visa',
    paymentMethodId: 'pm_card_threeDSecure2Required',
    outcome: 'Asks for 3-D Secure 2 authentication; succeeds once authenticated',
  },
  {
    number: '4000008400001629',
    brand: 'visa',
    paymentMethodId: 'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
    outcome: 'Asks for 3-D Secure authentication, then declines (insufficient funds)',
  },
  {
    number: '4000000000005126',
    brand: 'visa',
    paymentMethodId: 'pm_card_refundFail',
    outcome: 'Succeeds; its refunds stay pending, then fail',
  },
  {
    number: '4000000000000259',
    brand: 'visa',
    paymentMethodId: 'pm_card_createDispute',
    outcome: 'Succeeds; disputed as fraudulent a few seconds later',
  },
  {
    number: '4000000000000341',
    brand: 'visa',
    paymentMethodId: 'pm_card_chargeCustomerFail',
    outcome: 'Succeeds now; renewals charged later are declined',
  },
  {
    number: '4000002500003155',
    brand: 'visa',
    paymentMethodId: 'pm_card_authenticationRequiredOnSetup',
    outcome: 'Asks for 3-D Secure now; renewals charged later succeed',
  },
];

/** The digits of what was typed; spaces and dashes are how people group card numbers. */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]/g, '');
}

/** The Luhn (mod 10) checksum every card number carries in its last digit. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const BRAND_PREFIXES: readonly [CardBrand, RegExp][] = [
  ['amex', /^3[47]/],
  ['diners', /^3(0[0-5]|09|[689])/],
  ['jcb', /^35(2[89]|[3-8])/],
  ['visa', /^4/],
  // 51–55 and the 2-series range 2221–2720.
  ['mastercard', /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/],
  ['unionpay', /^62/],
  ['discover', /^(6011|64[4-9]|65)/],
];

/** The brand a (possibly partial) number belongs to, from its leading digits; null when unknown. */
export function detectCardBrand(digits: string): CardBrand | null {
  for (const [brand, prefix] of BRAND_PREFIXES) if (prefix.test(digits)) return brand;
  return null;
}

const CARD_LENGTHS: Record<CardBrand, readonly number[]> = {
  visa: [13, 16, 19],
  mastercard: [16],
  amex: [15],
  discover: [16, 19],
  diners: [14, 16, 19],
  jcb: [16, 19],
  unionpay: [16, 17, 18, 19],
};

/** The test PaymentMethod id a test card number stands for; null for any other number. */
export function testPaymentMethodFor(cardNumber: string): string | null {
  const digits = normalizeCardNumber(cardNumber);
  return TEST_CARDS.find((card) => card.number === digits)?.paymentMethodId ?? null;
}

/** The card a test PaymentMethod id stands for (its first number), for brand and last four. */
export function testCardFor(paymentMethodId: string): TestCard | null {
  return TEST_CARDS.find((card) => card.paymentMethodId === paymentMethodId) ?? null;
}

export type CardFormInput = { number: string; expiry: string; cvc: string };
export type CardFormErrors = Partial<Record<keyof CardFormInput, string>>;
export type CardFormResult =
  | { ok: true; paymentMethodId: string; brand: CardBrand; last4: string; expiry: CardExpiry }
  | { ok: false; errors: CardFormErrors };

/** Why a card number cannot be submitted, or null when it can. */
export function cardNumberError(input: string): string | null {
  const digits = normalizeCardNumber(input);
  if (digits === '') return 'Your card number is incomplete.';
  if (!/^\d+$/.test(digits)) return 'Your card number is invalid.';
  const brand = detectCardBrand(digits);
  const lengths = brand ? CARD_LENGTHS[brand] : [16];
  if (digits.length < Math.min(...lengths)) return 'Your card number is incomplete.';
  if (!lengths.includes(digits.length) || !isLuhnValid(digits)) return 'Your card number is invalid.';
  return null;
}

export type CardExpiry = { month: number; year: number };

/** `MM/YY` (or `MM / YY`, `MM/YYYY`) as a month and a four-digit year; null when not that shape. */
export function parseExpiry(input: string): CardExpiry | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input);
  if (!match) return null;
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return { month: Number(match[1]), year };
}

/**
 * Why a card with this expiry cannot be used, or null: a card is good through the last day of its
 * month, so only a month before the current one has expired. `now` is the caller's clock, in UTC.
 */
export function expiryDateError({ month, year }: CardExpiry, now: Date): string | null {
  if (month < 1 || month > 12) return "Your card's expiration date is invalid.";
  const currentYear = now.getUTCFullYear();
  if (year < currentYear) return "Your card's expiration year is in the past.";
  if (year === currentYear && month < now.getUTCMonth() + 1)
    return "Your card's expiration date is in the past.";
  if (year > currentYear + 50) return "Your card's expiration year is invalid.";
  return null;
}

/** What a card form says of the expiry typed: incomplete, invalid, past, or null when it is good. */
export function expiryError(input: string, now: Date): string | null {
  const expiry = parseExpiry(input);
  if (!expiry) {
    return /^\s*\d{0,2}\s*\/?\s*\d{0,3}\s*$/.test(input)
      ? "Your card's expiration date is incomplete."
      : "Your card's expiration date is invalid.";
  }
  return expiryDateError(expiry, now);
}

/** Three digits, four for American Express. */
export function cvcError(input: string, brand: CardBrand | null): string | null {
  const digits = input.trim();
  const length = brand === 'amex' ? 4 : 3;
  if (!/^\d*$/.test(digits)) return "Your card's security code is invalid.";
  if (digits.length < length) return "Your card's security code is incomplete.";
  if (digits.length > length) return "Your card's security code is invalid.";
  return null;
}

/**
 * Checks the sandbox card form as a card form does, then maps the number to its test PaymentMethod
 * and keeps the expiry typed: sandbox mode moves no money, so only Stripe's test numbers are
 * accepted.
 */
export function validateTestCardForm(input: CardFormInput, now: Date): CardFormResult {
  const digits = normalizeCardNumber(input.number);
  const brand = detectCardBrand(digits);
  const errors: CardFormErrors = {};
  const numberProblem = cardNumberError(input.number);
  if (numberProblem) errors.number = numberProblem;
  const expiryProblem = expiryError(input.expiry, now);
  if (expiryProblem) errors.expiry = expiryProblem;
  const cvcProblem = cvcError(input.cvc, brand);
  if (cvcProblem) errors.cvc = cvcProblem;
  const paymentMethodId = testPaymentMethodFor(digits);
  if (!errors.number && !paymentMethodId) {
    errors.number = 'Sandbox mode accepts only Stripe test card numbers, such as 4242 4242 4242 4242.';
  }
  const expiry = parseExpiry(input.expiry);
  if (Object.keys(errors).length > 0 || !paymentMethodId || !brand || !expiry) return { ok: false, errors };
  return { ok: true, paymentMethodId, brand, last4: digits.slice(-4), expiry };
}
