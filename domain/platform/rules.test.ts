import { describe, expect, it } from '@jest/globals';
import { canonicalJson, pageToSkipTake, paginated, parseSorting } from './rules.js';
import { pageQuerySchema, sortingSchema } from './schemas.js';

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
