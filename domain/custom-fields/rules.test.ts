import { describe, expect, it } from '@jest/globals';
import {
  customFieldValueFromText,
  propertiesIssues,
  validateCustomFieldData,
  type AttachedFieldRule,
} from './rules.js';
import { customFieldCreateSchema, customFieldSlugSchema, type CustomField } from './schemas.js';

describe('custom field properties', () => {
  it('accepts consistent bounds', () => {
    expect(propertiesIssues({ ge: 1, le: 10 })).toEqual([]);
    expect(propertiesIssues({ ge: 5, le: 5 })).toEqual([]);
    expect(propertiesIssues({ min_length: 0, max_length: 3, textarea: true })).toEqual([]);
    expect(
      propertiesIssues({
        options: [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses ge above le, min_length above max_length and duplicate option values', () => {
    expect(propertiesIssues({ ge: 11, le: 10 })).toEqual([
      { path: ['ge'], message: 'ge must be less than or equal to le.' },
    ]);
    expect(propertiesIssues({ min_length: 4, max_length: 3 })[0]?.path).toEqual(['min_length']);
    expect(
      propertiesIssues({
        options: [
          { value: 'a', label: 'A' },
          { value: 'a', label: 'B' },
        ],
      })[0]?.path,
    ).toEqual(['options']);
  });
});

describe('customFieldCreateSchema', () => {
  it('takes the properties of its type only', () => {
    const base = { slug: 'company', name: 'Company' };
    expect(
      customFieldCreateSchema.safeParse({ ...base, type: 'text', properties: { max_length: 10 } }).success,
    ).toBe(true);
    expect(
      customFieldCreateSchema.safeParse({ ...base, type: 'checkbox', properties: { max_length: 10 } })
        .success,
    ).toBe(false);
    expect(
      customFieldCreateSchema.safeParse({ ...base, type: 'select', properties: { options: [] } }).success,
    ).toBe(false);
    expect(customFieldCreateSchema.safeParse({ ...base, type: 'color', properties: {} }).success).toBe(false);
  });

  it('keeps slugs to ASCII letters, digits and hyphens', () => {
    expect(customFieldSlugSchema.safeParse('vat-number-2').success).toBe(true);
    for (const slug of ['', 'with space', 'accént', 'under_score']) {
      expect(customFieldSlugSchema.safeParse(slug).success).toBe(false);
    }
  });
});

describe('validateCustomFieldData', () => {
  const loc = (slug: string) => ['body', 'custom_field_data', slug];

  const attach = (field: AttachedFieldRule['field'], required = false): AttachedFieldRule => ({
    field,
    required,
  });
  const text = (
    properties: { min_length?: number; max_length?: number } = {},
  ): AttachedFieldRule['field'] => ({
    slug: 'company',
    name: 'Company',
    type: 'text',
    properties,
  });
  const number = (properties: { ge?: number; le?: number } = {}): AttachedFieldRule['field'] => ({
    slug: 'seats',
    name: 'Seats',
    type: 'number',
    properties,
  });
  const date = (properties: { ge?: number; le?: number } = {}): AttachedFieldRule['field'] => ({
    slug: 'birthday',
    name: 'Birthday',
    type: 'date',
    properties,
  });
  const select = {
    slug: 'size',
    name: 'Size',
    type: 'select',
    properties: {
      options: [
        { value: 's', label: 'Small' },
        { value: 'm', label: 'Medium' },
        { value: 'l', label: 'Large' },
      ],
    },
  } as const satisfies AttachedFieldRule['field'];
  const terms = {
    slug: 'terms',
    name: 'Terms',
    type: 'checkbox',
    properties: { form_label: 'I accept the terms' },
  } as const satisfies AttachedFieldRule['field'];

  const validate = (
    attached: AttachedFieldRule[],
    data: Record<string, unknown> | undefined,
    options?: { validateRequired?: boolean },
  ) => validateCustomFieldData(attached, data, options);
  const issuesOf = (attached: AttachedFieldRule[], data: Record<string, unknown>) =>
    validate(attached, data).issues;

  it('accepts the wire CustomField of the catalog as the field', () => {
    const field: CustomField = {
      created_at: '2026-01-01T00:00:00.000Z',
      modified_at: null,
      id: '00000000-0000-4000-8000-000000000001',
      metadata: {},
      slug: 'vat',
      name: 'VAT',
      organization_id: '00000000-0000-4000-8000-000000000002',
      type: 'text',
      properties: { max_length: 20 },
    };
    expect(validate([{ field, required: true }], { vat: 'DE123' })).toEqual({
      value: { vat: 'DE123' },
      issues: [],
    });
  });

  it('gives every attached slug a value: null when absent, false for an unticked checkbox', () => {
    const result = validate(
      [attach(text()), attach(number()), attach(date()), attach(select), attach(terms)],
      undefined,
    );
    expect(result).toEqual({
      value: { company: null, seats: null, birthday: null, size: null, terms: false },
      issues: [],
    });
    expect(validate([attach(text())], { company: null }).value).toEqual({ company: null });
    expect(validate([], undefined)).toEqual({ value: {}, issues: [] });
  });

  it('requires required fields, blank strings counting as absent', () => {
    const attached = [
      attach(text(), true),
      attach(number(), true),
      attach(select, true),
      attach(terms, true),
    ];
    expect(issuesOf(attached, { company: '   ', seats: '' })).toEqual([
      { loc: loc('company'), msg: 'Field required', type: 'missing' },
      { loc: loc('seats'), msg: 'Field required', type: 'missing' },
      { loc: loc('size'), msg: 'Field required', type: 'missing' },
      { loc: loc('terms'), msg: 'Field required', type: 'missing' },
    ]);
  });

  it('lets required fields wait until confirmation when asked to', () => {
    const attached = [attach(text(), true), attach(terms, true)];
    expect(validate(attached, {}, { validateRequired: false })).toEqual({
      value: { company: null, terms: false },
      issues: [],
    });
    expect(validate(attached, { terms: false }, { validateRequired: false }).issues).toEqual([]);
    // What is given is still checked.
    expect(validate(attached, { company: 5 }, { validateRequired: false }).issues[0]?.type).toBe(
      'string_type',
    );
  });

  it('refuses slugs the product does not have', () => {
    expect(issuesOf([attach(text())], { company: 'Acme', colour: 'red', other: 1 })).toEqual([
      { loc: loc('colour'), msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
      { loc: loc('other'), msg: 'Extra inputs are not permitted', type: 'extra_forbidden' },
    ]);
  });

  it('reports every bad field at once, in the order of the attached fields', () => {
    const result = validate([attach(text({ max_length: 2 })), attach(number({ ge: 1 }))], {
      seats: 0,
      company: 'Acme',
    });
    expect(result.issues.map((issue) => issue.loc.at(-1))).toEqual(['company', 'seats']);
    expect(result.value).toEqual({});
  });

  describe('text', () => {
    it('keeps text trimmed', () => {
      expect(validate([attach(text())], { company: '  Acme Inc. ' }).value).toEqual({ company: 'Acme Inc.' });
    });

    it('counts min_length and max_length in characters, bounds included', () => {
      const field = [attach(text({ min_length: 2, max_length: 4 }))];
      expect(issuesOf(field, { company: 'ab' })).toEqual([]);
      expect(issuesOf(field, { company: 'abcd' })).toEqual([]);
      // Two emoji are two characters (four UTF-16 units).
      expect(issuesOf([attach(text({ max_length: 2 }))], { company: ' 😀😀 ' })).toEqual([]);
      expect(issuesOf(field, { company: 'a' })).toEqual([
        { loc: loc('company'), msg: 'String should have at least 2 characters', type: 'string_too_short' },
      ]);
      expect(issuesOf(field, { company: 'abcde' })).toEqual([
        { loc: loc('company'), msg: 'String should have at most 4 characters', type: 'string_too_long' },
      ]);
      expect(issuesOf([attach(text({ max_length: 1 }))], { company: 'ab' })[0]?.msg).toBe(
        'String should have at most 1 character',
      );
    });

    it('refuses what is not a string', () => {
      for (const value of [42, true, ['a'], { a: 1 }]) {
        expect(issuesOf([attach(text())], { company: value })).toEqual([
          { loc: loc('company'), msg: 'Input should be a valid string', type: 'string_type' },
        ]);
      }
    });
  });

  describe('number', () => {
    it('takes integers, also as text', () => {
      expect(validate([attach(number())], { seats: 12 }).value).toEqual({ seats: 12 });
      expect(validate([attach(number())], { seats: -3 }).value).toEqual({ seats: -3 });
      expect(validate([attach(number())], { seats: ' 007 ' }).value).toEqual({ seats: 7 });
      expect(validate([attach(number())], { seats: '+5' }).value).toEqual({ seats: 5 });
      expect(validate([attach(number())], { seats: 0 }).value).toEqual({ seats: 0 });
    });

    it('holds ge and le, bounds included', () => {
      const field = [attach(number({ ge: 1, le: 10 }))];
      expect(issuesOf(field, { seats: 1 })).toEqual([]);
      expect(issuesOf(field, { seats: 10 })).toEqual([]);
      expect(issuesOf(field, { seats: 0 })).toEqual([
        { loc: loc('seats'), msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' },
      ]);
      expect(issuesOf(field, { seats: '11' })).toEqual([
        { loc: loc('seats'), msg: 'Input should be less than or equal to 10', type: 'less_than_equal' },
      ]);
    });

    it('refuses fractions, non-numbers and integers beyond exact range', () => {
      const field = [attach(number())];
      expect(issuesOf(field, { seats: 1.5 })[0]?.type).toBe('int_from_float');
      expect(issuesOf(field, { seats: '1.5' })[0]?.type).toBe('int_parsing');
      expect(issuesOf(field, { seats: 'ten' })[0]?.type).toBe('int_parsing');
      expect(issuesOf(field, { seats: true })[0]?.type).toBe('int_type');
      expect(issuesOf(field, { seats: Number.NaN })[0]?.type).toBe('finite_number');
      expect(issuesOf(field, { seats: Number.POSITIVE_INFINITY })[0]?.type).toBe('finite_number');
      expect(issuesOf(field, { seats: 2 ** 53 })[0]?.type).toBe('int_type');
      expect(issuesOf(field, { seats: '99999999999999999999' })[0]?.type).toBe('int_type');
    });
  });

  describe('date', () => {
    // 2026-01-01T00:00:00Z and 2026-12-31T23:59:59Z as Unix seconds.
    const ge = Date.UTC(2026, 0, 1) / 1000;
    const le = Date.UTC(2026, 11, 31, 23, 59, 59) / 1000;

    it('takes ISO dates and date-times, keeping the calendar date as written', () => {
      const field = [attach(date())];
      expect(validate(field, { birthday: '2024-02-29' }).value).toEqual({ birthday: '2024-02-29' });
      expect(validate(field, { birthday: '2024-05-01T23:30:00-05:00' }).value).toEqual({
        birthday: '2024-05-01',
      });
      expect(validate(field, { birthday: '2024-05-01T00:15:00.123Z' }).value).toEqual({
        birthday: '2024-05-01',
      });
      expect(validate(field, { birthday: '2024-05-01T08:00' }).value).toEqual({ birthday: '2024-05-01' });
    });

    it('refuses what is not a real date', () => {
      const field = [attach(date())];
      for (const value of [
        '2023-02-29',
        '2024-13-01',
        '2024-04-31',
        '01/05/2024',
        '2024-5-1',
        'tomorrow',
        20240501,
      ]) {
        expect(issuesOf(field, { birthday: value })).toEqual([
          {
            loc: loc('birthday'),
            msg: 'Input should be a valid date in the format YYYY-MM-DD',
            type: 'date_parsing',
          },
        ]);
      }
      expect(issuesOf(field, { birthday: '2024-05-01T24:00:00Z' })[0]?.type).toBe('date_parsing');
      expect(issuesOf(field, { birthday: '2024-05-01T10:60:00Z' })[0]?.type).toBe('date_parsing');
      expect(issuesOf(field, { birthday: '0000-01-01' })[0]?.type).toBe('date_parsing');
    });

    it('holds ge and le, Unix timestamps bounding their UTC day, bounds included', () => {
      const field = [attach(date({ ge, le }))];
      expect(issuesOf(field, { birthday: '2026-01-01' })).toEqual([]);
      expect(issuesOf(field, { birthday: '2026-12-31' })).toEqual([]);
      expect(issuesOf(field, { birthday: '2025-12-31' })).toEqual([
        {
          loc: loc('birthday'),
          msg: 'Input should be greater than or equal to 2026-01-01',
          type: 'greater_than_equal',
        },
      ]);
      expect(issuesOf(field, { birthday: '2027-01-01T00:00:00Z' })).toEqual([
        {
          loc: loc('birthday'),
          msg: 'Input should be less than or equal to 2026-12-31',
          type: 'less_than_equal',
        },
      ]);
      expect(issuesOf([attach(date({ ge: 0 }))], { birthday: '1969-12-31' })[0]?.type).toBe(
        'greater_than_equal',
      );
    });
  });

  describe('select', () => {
    it('takes one of the option values, exactly', () => {
      expect(validate([attach(select)], { size: 'm' }).value).toEqual({ size: 'm' });
      for (const value of ['Medium', 'M', ' m', 1, true]) {
        expect(issuesOf([attach(select)], { size: value })).toEqual([
          { loc: loc('size'), msg: "Input should be 's', 'm' or 'l'", type: 'literal_error' },
        ]);
      }
    });

    it('names a single option plainly', () => {
      const single = { ...select, properties: { options: [{ value: 'one', label: 'One' }] } };
      expect(issuesOf([attach(single)], { size: 'two' })[0]?.msg).toBe("Input should be 'one'");
    });
  });

  describe('checkbox', () => {
    it('takes booleans', () => {
      expect(validate([attach(terms)], { terms: true }).value).toEqual({ terms: true });
      expect(validate([attach(terms)], { terms: false }).value).toEqual({ terms: false });
      for (const value of ['true', 1, 'yes']) {
        expect(issuesOf([attach(terms)], { terms: value })).toEqual([
          { loc: loc('terms'), msg: 'Input should be a valid boolean', type: 'bool_type' },
        ]);
      }
    });

    it('must be ticked when required', () => {
      expect(validate([attach(terms, true)], { terms: true }).issues).toEqual([]);
      expect(issuesOf([attach(terms, true)], { terms: false })).toEqual([
        { loc: loc('terms'), msg: 'Input should be True', type: 'literal_error' },
      ]);
    });
  });
});

describe('customFieldValueFromText', () => {
  it("reads a checkbox's yes/no words as booleans, as pydantic's lax mode does", () => {
    for (const word of ['true', 'TRUE', ' yes ', 'on', '1', 't', 'y']) {
      expect(customFieldValueFromText('checkbox', word)).toBe(true);
    }
    for (const word of ['false', 'No', 'off', '0', 'f', 'n']) {
      expect(customFieldValueFromText('checkbox', word)).toBe(false);
    }
    expect(customFieldValueFromText('checkbox', 'maybe')).toBe('maybe');
  });

  it('leaves text of every other type as it is', () => {
    expect(customFieldValueFromText('text', 'true')).toBe('true');
    expect(customFieldValueFromText('number', '42')).toBe('42');
    expect(customFieldValueFromText('select', 'yes')).toBe('yes');
    expect(customFieldValueFromText('date', '2026-01-31')).toBe('2026-01-31');
  });
});
