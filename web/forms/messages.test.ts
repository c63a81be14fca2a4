import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../api';
import { readDollars } from '../catalog/format';
import {
  authErrorsInWords,
  describeIssue,
  fieldErrors,
  formErrorsInWords,
  INVALID_VALUE_MESSAGE,
  UNKNOWN_FIELD_MESSAGE,
  type FormWords,
} from './messages';
import { countWords, dollarWords, nameWords, PERCENT_WORDS } from './words';

const refusal = (...issues: { loc: unknown[]; msg: string; type: string }[]) =>
  new ApiError(422, 'invalid', null, issues);

const WORDS: FormWords = {
  name: nameWords('product name', { min: 3, max: 256 }),
  'prices.*.price_amount': dollarWords({ min: 50, max: 99_999_999 }),
  basis_points: PERCENT_WORDS,
  'prices.*': {},
};

describe('formErrorsInWords', () => {
  it('says a price typed in dollars is too small in dollars, under the price of that index', () => {
    const errors = formErrorsInWords(
      refusal({
        loc: ['body', 'prices', 0, 'price_amount'],
        msg: 'Too small: expected number to be >=50',
        type: 'too_small',
      }),
      WORDS,
    );
    expect(errors).toEqual({ fields: { 'prices.0.price_amount': 'Enter at least $0.50.' }, form: null });
  });

  it('says a percentage above 100% as a percentage, never in basis points', () => {
    const errors = formErrorsInWords(
      refusal({
        loc: ['body', 'basis_points'],
        msg: 'Too big: expected number to be <=10000',
        type: 'too_big',
      }),
      WORDS,
    );
    expect(errors.fields.basis_points).toBe('A percentage is at most 100%.');
    expect(JSON.stringify(errors)).not.toMatch(/10000|basis_points:|Too big/);
  });

  it('words names by what is wrong with them', () => {
    const at = (type: string) =>
      formErrorsInWords(refusal({ loc: ['body', 'name'], msg: 'zod text', type }), WORDS).fields.name;
    expect(at('too_small')).toBe('Enter a product name of at least 3 characters.');
    expect(at('too_big')).toBe('Enter at most 256 characters.');
    expect(at('invalid_type')).toBe('Enter a product name of at least 3 characters.');
    expect(at('invalid_format')).toMatch(/control characters/);
  });

  it('keeps the sentence of a rule only the service checks, next to the field it names', () => {
    const errors = formErrorsInWords(
      refusal({
        loc: ['body', 'prices', 1],
        msg: 'A product may have only one static price (free, fixed or custom).',
        type: 'value_error',
      }),
      WORDS,
    );
    expect(errors.fields['prices.1']).toBe(
      'A product may have only one static price (free, fixed or custom).',
    );
  });

  it('never shows a schema sentence: unnamed kinds and unknown fields get words of the form', () => {
    const errors = formErrorsInWords(
      refusal(
        { loc: ['body', 'prices', 0], msg: 'Invalid input', type: 'invalid_union' },
        {
          loc: ['body', 'metadata', 'x'],
          msg: 'Too big: expected string to have <=500 characters',
          type: 'too_big',
        },
        { loc: ['body'], msg: 'Unrecognized key: "foo"', type: 'unrecognized_keys' },
      ),
      WORDS,
    );
    expect(errors).toEqual({ fields: { 'prices.0': INVALID_VALUE_MESSAGE }, form: UNKNOWN_FIELD_MESSAGE });
  });

  it("shows the service's own sentence next to its field, not the field's general words", () => {
    // Regression: a second discount with a taken code read "A code is 3 to 256 letters…".
    const words: FormWords = {
      code: { other: 'A code is 3 to 256 letters, digits, dashes or underscores.' },
    };
    const taken = formErrorsInWords(
      refusal({
        loc: ['body', 'code'],
        msg: 'A discount with this code already exists.',
        type: 'value_error',
      }),
      words,
    );
    expect(taken).toEqual({ fields: { code: 'A discount with this code already exists.' }, form: null });
    // A schema refusal of the same field still gets the field's words.
    const short = formErrorsInWords(
      refusal({
        loc: ['body', 'code'],
        msg: 'Too small: expected string to have >=3 characters',
        type: 'too_small',
      }),
      words,
    );
    expect(short.fields.code).toBe('A code is 3 to 256 letters, digits, dashes or underscores.');
    // FastAPI-style schema sentences are not the service's words either.
    const missing = formErrorsInWords(
      refusal({ loc: ['body', 'code'], msg: 'Field required', type: 'missing' }),
      words,
    );
    expect(missing.fields.code).toBe('A code is 3 to 256 letters, digits, dashes or underscores.');
  });

  it('shows a service sentence about the whole body as the form message', () => {
    const errors = formErrorsInWords(
      refusal({
        loc: ['body'],
        msg: 'The value and duration of a discount that was redeemed cannot change.',
        type: 'value_error',
      }),
      WORDS,
    );
    expect(errors).toEqual({
      fields: {},
      form: 'The value and duration of a discount that was redeemed cannot change.',
    });
  });

  it('passes other failures on as the API said them', () => {
    expect(formErrorsInWords(new ApiError(403, 'Not permitted'), WORDS)).toEqual({
      fields: {},
      form: 'Not permitted',
    });
    expect(formErrorsInWords(new Error('Failed to fetch'), WORDS).form).toBe('Failed to fetch');
  });

  it('keeps the first message of a field when the API reports several', () => {
    const errors = formErrorsInWords(
      refusal(
        { loc: ['body', 'name'], msg: 'a', type: 'too_big' },
        { loc: ['body', 'name'], msg: 'b', type: 'invalid_format' },
      ),
      WORDS,
    );
    expect(errors.fields.name).toBe('Enter at most 256 characters.');
  });
});

describe('describeIssue', () => {
  it('prefers the exact path over the indexed pattern', () => {
    const words: FormWords = { 'prices.*': { other: 'any price' }, 'prices.2': { other: 'the third price' } };
    expect(describeIssue({ loc: ['body', 'prices', 2], type: 'custom' }, words).message).toBe(
      'the third price',
    );
    expect(describeIssue({ loc: ['body', 'prices', 0], type: 'custom' }, words).message).toBe('any price');
  });
});

describe('authErrorsInWords', () => {
  const ORGANIZATION: FormWords = {
    name: nameWords('name', { max: 255 }),
    slug: { too_small: 'Enter a slug of at least 3 characters.', other: 'A slug is lowercase letters.' },
  };

  it('reads the field out of Better Auth validation texts such as "[body.slug] Too small…"', () => {
    expect(
      authErrorsInWords(
        {
          code: 'VALIDATION_ERROR',
          message: '[body.slug] Too small: expected string to have >=1 characters',
        },
        ORGANIZATION,
      ),
    ).toEqual({ fields: { slug: 'Enter a slug of at least 3 characters.' }, form: null });
  });

  it('maps Better Auth error codes to a field and a sentence', () => {
    expect(
      authErrorsInWords(
        { code: 'ORGANIZATION_SLUG_ALREADY_TAKEN', message: 'Organization slug already taken' },
        ORGANIZATION,
        {
          ORGANIZATION_SLUG_ALREADY_TAKEN: { field: 'slug', message: 'This slug is taken. Choose another.' },
        },
      ),
    ).toEqual({ fields: { slug: 'This slug is taken. Choose another.' }, form: null });
  });

  it('says a validation text about a field the form lacks in the form’s words, not zod’s', () => {
    const errors = authErrorsInWords(
      {
        code: 'VALIDATION_ERROR',
        message: '[body.metadata] Invalid input: expected record, received string',
      },
      ORGANIZATION,
    );
    expect(errors).toEqual({ fields: {}, form: UNKNOWN_FIELD_MESSAGE });
  });

  it('keeps Better Auth’s own sentence for codes the form does not map', () => {
    expect(
      authErrorsInWords(
        { code: 'UNABLE_TO_REMOVE_LAST_TEAM', message: 'Unable to remove last team' },
        ORGANIZATION,
      ),
    ).toEqual({ fields: {}, form: 'Unable to remove last team' });
  });
});

describe('fieldErrors', () => {
  it('is null when nothing was found, so the form sends', () => {
    expect(fieldErrors({ amount: null, percent: null })).toBeNull();
    expect(fieldErrors({ amount: 'Enter an amount.', percent: null })).toEqual({
      fields: { amount: 'Enter an amount.' },
      form: null,
    });
  });
});

describe('words', () => {
  it('says bounds in the units the seller types', () => {
    expect(dollarWords({ min: 50, max: 1_000_000 })).toMatchObject({
      too_small: 'Enter at least $0.50.',
      too_big: 'Enter at most $10,000.00.',
    });
    expect(countWords('months', { min: 1, max: 999 }).too_big).toBe(
      'Enter a whole number of months from 1 to 999.',
    );
  });
});

describe('readDollars', () => {
  it('reads dollars as whole cents, without floating-point drift', () => {
    expect(readDollars('19.99')).toEqual({ cents: 1999, error: null });
    expect(readDollars(' $1,250.5 ')).toEqual({ cents: 125_050, error: null });
    expect(readDollars('0.10')).toEqual({ cents: 10, error: null });
    expect(readDollars('')).toEqual({ cents: null, error: null });
  });

  it('refuses what is not an amount, in words', () => {
    expect(readDollars('ten')).toEqual({ cents: null, error: 'Enter an amount in dollars, such as 9.99.' });
    expect(readDollars('-5')).toEqual({ cents: null, error: 'Enter an amount in dollars, such as 9.99.' });
  });
});
