import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import {
  canonicalJson,
  csvLine,
  characterCount,
  pageToSkipTake,
  paginated,
  parseSorting,
  textRuleViolation,
} from './rules.js';
import {
  emailAddressSchema,
  nameSchema,
  pageQuerySchema,
  sortingSchema,
  textSchema,
  withTextRule,
} from './schemas.js';

describe('pagination', () => {
  it('turns a 1-based page into skip/take', () => {
    expect(pageToSkipTake({ page: 3, limit: 20 })).toEqual({ skip: 40, take: 20 });
  });

  it('counts max_page from the total and the limit', () => {
    expect(paginated([], 0, { page: 1, limit: 10 }).pagination).toEqual({ total_count: 0, max_page: 0 });
    expect(paginated([], 21, { page: 1, limit: 10 }).pagination).toEqual({ total_count: 21, max_page: 3 });
  });

  it('defaults and bounds the query', () => {
    expect(pageQuerySchema.parse({})).toEqual({ page: 1, limit: 10 });
    // Found by Schemathesis: a page of 2^53 overflowed the offset and answered 500.
    expect(pageQuerySchema.safeParse({ page: String(2 ** 53) }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ page: '0' }).success).toBe(false);
  });
});

describe('sorting', () => {
  const schema = sortingSchema(['name', '-name', 'created_at', '-created_at']);

  it('accepts one value or several and rejects unknown fields', () => {
    expect(schema.parse('name')).toEqual(['name']);
    expect(schema.parse(['-created_at', 'name'])).toEqual(['-created_at', 'name']);
    expect(schema.safeParse('password').success).toBe(false);
    // More repeats than Express's query parser reads as a list (it gives an object then).
    expect(schema.safeParse(Array.from({ length: 21 }, () => 'name')).success).toBe(false);
  });

  it('reads a leading minus as descending', () => {
    expect(parseSorting(['-created_at', 'name'])).toEqual([
      { field: 'created_at', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([3, 1])).not.toBe(canonicalJson([1, 3]));
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('é')).toBe('"é"');
  });
});

// The hardening issue's item 3: each of these reached PostgreSQL and answered 500.
describe('the text rule', () => {
  const issuesOf = (schema: z.ZodType, value: unknown) =>
    schema.safeParse(value).error?.issues.map(({ code, message }) => ({ code, message })) ?? [];

  it('refuses NUL and other control characters, keeping tab and line breaks', () => {
    const schema = textSchema({ max: 256 });
    expect(issuesOf(schema, 'a\u0000b')).toEqual([
      { code: 'invalid_format', message: 'Must not contain control characters.' },
    ]);
    for (const control of ['\u0001', '\u001b', '\u007f', '\u0085']) {
      expect(schema.safeParse(`a${control}b`).success).toBe(false);
    }
    expect(schema.parse('line one\r\n\tline two')).toBe('line one\r\n\tline two');
  });

  it('refuses unpaired surrogates and keeps paired ones (an emoji is one character)', () => {
    const schema = textSchema({ max: 3 });
    expect(issuesOf(textSchema({ max: 256 }), 'sur\ud800rogate')).toEqual([
      { code: 'invalid_format', message: 'Must be valid Unicode text (no unpaired surrogate characters).' },
    ]);
    expect(schema.safeParse('\udc00').success).toBe(false);
    expect(schema.parse('😀😀😀')).toBe('😀😀😀');
    expect(characterCount('😀é')).toBe(2);
  });

  it('counts characters against the maximum and the minimum, after trimming names', () => {
    expect(issuesOf(textSchema({ max: 256 }), 'x'.repeat(257))).toEqual([
      { code: 'too_big', message: 'Must be at most 256 characters.' },
    ]);
    expect(textSchema({ max: 256 }).safeParse('x'.repeat(256)).success).toBe(true);
    expect(issuesOf(nameSchema(), '   ')).toEqual([{ code: 'too_small', message: 'Must not be empty.' }]);
    expect(issuesOf(nameSchema(256, 3), ' ab ')).toEqual([
      { code: 'too_small', message: 'Must be at least 3 characters.' },
    ]);
    expect(nameSchema().parse('  Shop  ')).toBe('Shop');
  });

  it('applies to strings with a format of their own, keeping the format', () => {
    const url = withTextRule(z.url(), { max: 2048 });
    expect(url.safeParse('https://shop.example/a\u0000b').success).toBe(false);
    expect(url.safeParse(`https://shop.example/${'a'.repeat(2048)}`).success).toBe(false);
    expect(url.parse('https://shop.example/a')).toBe('https://shop.example/a');
    expect(z.toJSONSchema(url)).toMatchObject({ format: 'uri', maxLength: 2048 });
  });

  it('documents the maximum, the minimum and the control-character pattern', () => {
    expect(z.toJSONSchema(nameSchema(256, 3).nullable().optional(), { io: 'input' })).toMatchObject({
      anyOf: [
        { type: 'string', maxLength: 256, minLength: 3, pattern: expect.any(String) },
        { type: 'null' },
      ],
    });
  });

  it('keeps email addresses within SMTP limits (64 before the @, 63 per domain label)', () => {
    expect(emailAddressSchema().safeParse(`${'a'.repeat(64)}@example.com`).success).toBe(true);
    expect(emailAddressSchema().safeParse(`${'a'.repeat(65)}@example.com`).success).toBe(false);
    expect(emailAddressSchema().safeParse(`ada@${'b'.repeat(64)}.com`).success).toBe(false);
  });

  it('reports the first problem of a text checked outside a schema', () => {
    expect(textRuleViolation('ok', { max: 2 })).toBeNull();
    expect(textRuleViolation('a\u0000', { max: 1 })?.message).toBe('Must not contain control characters.');
    expect(textRuleViolation('abc', { max: 2 })).toEqual({
      message: 'Must be at most 2 characters.',
      type: 'too_big',
    });
  });
});

describe('csvLine', () => {
  it('quotes cells with commas, quotes and line breaks, and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, true, 12])).toBe(
      'a,"b,c","say ""hi""","two\nlines",,true,12\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvLine(['=HYPERLINK("x")', '+1', '-2', '@SUM(A1)', 'plain'])).toBe(
      `"'=HYPERLINK(""x"")",'+1,'-2,'@SUM(A1),plain\r\n`,
    );
  });
});
