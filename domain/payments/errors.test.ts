import { describe, expect, it } from '@jest/globals';
import { PaymentProcessorError, refusalReason, refusedPaymentNotice } from './errors.js';

const reusedKey = new PaymentProcessorError(
  'idempotency_error',
  "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'checkout:0b6f:payment:1' if you meant to execute a different request.",
  'permanent',
);

describe('refusalReason', () => {
  it("gives the seller the processor's code and message", () => {
    expect(refusalReason(reusedKey)).toBe(
      "The payment processor refused the request (idempotency_error): Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'checkout:0b6f:payment:1' if you meant to execute a different request.",
    );
  });
});

describe('refusedPaymentNotice', () => {
  const notice = refusedPaymentNotice('Acme Tools');

  it('tells the buyer that nothing was charged, whose problem it is and what to do', () => {
    expect(notice).toBe(
      "We could not take this payment because of a problem on the seller's side. You have not been charged. Please try again later, or contact Acme Tools if it keeps happening.",
    );
  });

  it("leaks none of the processor's words: no code, id or idempotency key", () => {
    for (const secret of [reusedKey.code, 'checkout:0b6f:payment:1', 'idempotent', 'processor']) {
      expect(notice).not.toContain(secret);
    }
  });

  it("differs from a card decline's words, which blame the card", () => {
    expect(notice).not.toMatch(/declined|your card/i);
  });
});
