import { describe, expect, it } from '@jest/globals';
import { propertiesIssues } from './rules.js';
import { customFieldCreateSchema, customFieldSlugSchema } from './schemas.js';

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
