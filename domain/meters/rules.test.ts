import { describe, expect, it } from '@jest/globals';
import { filterIssues, MAX_FILTER_DEPTH } from './rules.js';
import { aggregationSchema, filterSchema, type Filter } from './schemas.js';

const clause = { property: 'name', operator: 'eq', value: 'api_call' } as const;

function nested(depth: number): Filter {
  let filter: Filter = { conjunction: 'and', clauses: [clause] };
  for (let level = 1; level < depth; level += 1) filter = { conjunction: 'or', clauses: [filter] };
  return filter;
}

describe('filterSchema', () => {
  it('accepts nested and/or clauses with every operator of spec §4', () => {
    const filter = {
      conjunction: 'and',
      clauses: [
        { property: 'name', operator: 'eq', value: 'api_call' },
        {
          conjunction: 'or',
          clauses: [
            { property: 'tokens', operator: 'gte', value: 10 },
            { property: 'model', operator: 'like', value: 'gpt%' },
            { property: 'beta', operator: 'ne', value: true },
          ],
        },
      ],
    };
    expect(filterSchema.parse(filter)).toEqual(filter);
    for (const operator of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'not_like']) {
      expect(filterSchema.safeParse({ conjunction: 'and', clauses: [{ ...clause, operator }] }).success).toBe(
        true,
      );
    }
  });

  it('refuses unknown operators and conjunctions, extra keys, floats and empty properties', () => {
    const bad = [
      { conjunction: 'xor', clauses: [] },
      { conjunction: 'and', clauses: [{ ...clause, operator: 'contains' }] },
      { conjunction: 'and', clauses: [{ ...clause, extra: 1 }] },
      { conjunction: 'and', clauses: [{ ...clause, value: 1.5 }] },
      { conjunction: 'and', clauses: [{ ...clause, property: '' }] },
      { conjunction: 'and', clauses: [{ ...clause, value: null }] },
      { conjunction: 'and' },
    ];
    for (const filter of bad) expect(filterSchema.safeParse(filter).success).toBe(false);
  });
});

describe('filterIssues', () => {
  it('asks like and not_like for a string, naming the clause', () => {
    const filter: Filter = {
      conjunction: 'and',
      clauses: [clause, { conjunction: 'or', clauses: [{ property: 'n', operator: 'like', value: 3 }] }],
    };
    expect(filterIssues(filter)).toEqual([
      { path: ['clauses', 1, 'clauses', 0, 'value'], message: 'The like operator takes a string value.' },
    ]);
  });

  it(`allows ${MAX_FILTER_DEPTH} levels of nesting and no more`, () => {
    expect(filterIssues(nested(MAX_FILTER_DEPTH))).toEqual([]);
    expect(filterIssues(nested(MAX_FILTER_DEPTH + 1))).toHaveLength(1);
  });
});

describe('aggregationSchema', () => {
  it('takes count alone and sum/max/min/avg with a property', () => {
    expect(aggregationSchema.parse({ func: 'count' })).toEqual({ func: 'count' });
    for (const func of ['sum', 'max', 'min', 'avg']) {
      expect(aggregationSchema.parse({ func, property: 'tokens' })).toEqual({ func, property: 'tokens' });
      expect(aggregationSchema.safeParse({ func }).success).toBe(false);
    }
    expect(aggregationSchema.safeParse({ func: 'count', property: 'x' }).success).toBe(false);
    expect(aggregationSchema.safeParse({ func: 'unique', property: 'x' }).success).toBe(false);
  });
});
