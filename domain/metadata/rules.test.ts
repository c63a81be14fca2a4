import { describe, expect, it } from '@jest/globals';
import { metadataQueryCandidates, metadataQueryFrom, readMetadata } from './rules.js';
import { metadataInputSchema } from './schemas.js';

describe('metadataInputSchema', () => {
  it('accepts strings, integers, floats and booleans', () => {
    const metadata = { plan: 'pro', seats: 3, ratio: 0.5, beta: true };
    expect(metadataInputSchema.parse(metadata)).toEqual(metadata);
  });

  it('refuses keys over 40 characters, naming the key', () => {
    const result = metadataInputSchema.safeParse({ ['k'.repeat(41)]: 'x', ok: 'y' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['k'.repeat(41)]);
    expect(metadataInputSchema.safeParse({ ['k'.repeat(40)]: 'x' }).success).toBe(true);
  });

  it('refuses string values over 500 characters and other value types', () => {
    expect(metadataInputSchema.safeParse({ note: 'x'.repeat(500) }).success).toBe(true);
    const long = metadataInputSchema.safeParse({ note: 'x'.repeat(501) });
    expect(long.error?.issues[0]?.path).toEqual(['note']);
    expect(metadataInputSchema.safeParse({ nested: { a: 1 } }).success).toBe(false);
    expect(metadataInputSchema.safeParse({ list: [1] }).success).toBe(false);
    expect(metadataInputSchema.safeParse({ nothing: null }).success).toBe(false);
  });

  // The hardening issue's item 3: jsonb refuses both, which answered 500.
  it('refuses NUL and unpaired surrogates in keys and string values, naming the key', () => {
    const nulInValue = metadataInputSchema.safeParse({ note: 'a\u0000b' });
    expect(nulInValue.error?.issues[0]?.path).toEqual(['note']);
    expect(metadataInputSchema.safeParse({ 'a\u0000b': 'x' }).success).toBe(false);
    expect(metadataInputSchema.safeParse({ note: 'sur\ud800rogate' }).success).toBe(false);
  });

  it('refuses more than 50 keys and empty keys', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, index]));
    expect(metadataInputSchema.safeParse(fifty).success).toBe(true);
    expect(metadataInputSchema.safeParse({ ...fifty, one: 'more' }).success).toBe(false);
    expect(metadataInputSchema.safeParse({ '': 'x' }).success).toBe(false);
  });
});

describe('metadata queries', () => {
  it('reads deepObject keys from a parsed query string, repeated or not', () => {
    expect(
      metadataQueryFrom({ 'metadata[plan]': ['pro', 'team'], 'metadata[beta]': 'true', page: '1' }),
    ).toEqual({ plan: ['pro', 'team'], beta: ['true'] });
    expect(metadataQueryFrom({ metadata: 'x' })).toEqual({});
  });

  it('lets a query string match the typed values it stands for', () => {
    expect(metadataQueryCandidates('42')).toEqual(['42', 42]);
    expect(metadataQueryCandidates('true')).toEqual(['true', true]);
    expect(metadataQueryCandidates('pro')).toEqual(['pro']);
    expect(metadataQueryCandidates('')).toEqual(['']);
  });

  it('reads stored metadata defensively', () => {
    expect(readMetadata({ a: 1, b: 'x', c: false, d: null })).toEqual({ a: 1, b: 'x', c: false });
    expect(readMetadata(null)).toEqual({});
    expect(readMetadata([1])).toEqual({});
  });
});
