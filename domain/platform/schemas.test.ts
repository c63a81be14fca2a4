import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { invalidInputFromZod } from './errors.js';
import { NOT_AVAILABLE_YET, offUntilBuilt, refusedUntilBuilt } from './schemas.js';

const refusal = (schema: z.ZodType, body: unknown) => {
  const result = schema.safeParse(body);
  return result.success ? null : invalidInputFromZod(result.error, 'body').issues;
};

describe('offUntilBuilt', () => {
  const body = z.strictObject({
    seats: offUntilBuilt(z.number().int(), [], 'Seats'),
    emails: offUntilBuilt(
      z.strictObject({ a: z.boolean(), b: z.boolean() }),
      [{ a: true, b: false }],
      'Emails',
    ),
  });

  it('accepts the off value (in any key order), null and absence', () => {
    expect(refusal(body, {})).toBeNull();
    expect(refusal(body, { seats: null, emails: null })).toBeNull();
    expect(refusal(body, { emails: { b: false, a: true } })).toBeNull();
  });

  it('refuses any other value with a 422 on the field saying the feature is not available yet', () => {
    expect(refusal(body, { seats: 3, emails: { a: false, b: false } })).toEqual([
      { loc: ['body', 'seats'], msg: 'Seats is not available yet.', type: NOT_AVAILABLE_YET },
      { loc: ['body', 'emails'], msg: 'Emails is not available yet.', type: NOT_AVAILABLE_YET },
    ]);
  });

  it('still validates the value itself first, and unknown keys stay refused', () => {
    expect(refusal(body, { seats: 'many' })).toMatchObject([
      { loc: ['body', 'seats'], type: 'invalid_type' },
    ]);
    expect(refusal(body, { trial: true })).toMatchObject([{ loc: ['body'], type: 'unrecognized_keys' }]);
  });
});

describe('refusedUntilBuilt', () => {
  it('refuses every value', () => {
    const body = z.strictObject({ seats: refusedUntilBuilt(z.number().int(), 'Seats') });
    expect(refusal(body, { seats: 1 })).toEqual([
      { loc: ['body', 'seats'], msg: 'Seats is not available yet.', type: NOT_AVAILABLE_YET },
    ]);
  });
});

describe('a union matched by the value', () => {
  it("names the issues of the variant of the value's type", () => {
    const taxId = z.strictObject({
      tax_id: z.union([z.tuple([z.string(), z.enum(['eu_vat'])]), z.string()]),
    });
    expect(refusal(taxId, { tax_id: ['DE1', 'xx_vat'] })).toMatchObject([{ loc: ['body', 'tax_id', 1] }]);
  });
});
