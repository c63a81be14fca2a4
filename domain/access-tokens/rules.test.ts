import { describe, expect, it } from '@jest/globals';
import { isTokenUsable, looksLikeAccessToken, parseDurationSeconds, shouldRecordUse } from './rules.js';
import { accessTokenCreateSchema } from './schemas.js';

describe('parseDurationSeconds', () => {
  it.each([
    ['P1D', 86_400],
    ['PT12H', 43_200],
    ['P1W', 604_800],
    ['P1DT1H30M5S', 91_805],
    ['PT90S', 90],
  ])('reads %s as %p seconds', (value, seconds) => {
    expect(parseDurationSeconds(value)).toBe(seconds);
  });

  it.each(['', 'P', 'PT', '1D', 'P1Y', 'P-1D', 'soon'])('rejects %p', (value) => {
    expect(parseDurationSeconds(value)).toBeNull();
  });
});

describe('accessTokenCreateSchema', () => {
  const base = { organization_id: '6f1d2c1e-7d1a-4a43-9b6a-3e2f4e5d6c7b', comment: 'CI deploys' };

  it('accepts seconds or an ISO duration and known scopes', () => {
    expect(
      accessTokenCreateSchema.parse({ ...base, expires_in: 3600, scopes: ['products:read'] }),
    ).toMatchObject({
      expires_in: 3600,
      scopes: ['products:read'],
    });
    expect(accessTokenCreateSchema.parse({ ...base, expires_in: 'P30D' }).expires_in).toBe(2_592_000);
  });

  it('rejects unknown scopes, non-positive or over-long lifetimes and unknown fields', () => {
    expect(accessTokenCreateSchema.safeParse({ ...base, scopes: ['root'] }).success).toBe(false);
    expect(accessTokenCreateSchema.safeParse({ ...base, expires_in: 0 }).success).toBe(false);
    expect(accessTokenCreateSchema.safeParse({ ...base, expires_in: 'P4000D' }).success).toBe(false);
    expect(accessTokenCreateSchema.safeParse({ ...base, admin: true }).success).toBe(false);
  });
});

describe('token rules', () => {
  const now = new Date('2026-11-22T12:00:00Z');

  it('recognizes the token format', () => {
    expect(looksLikeAccessToken(`tollgate_oat_${'a'.repeat(43)}`)).toBe(true);
    expect(looksLikeAccessToken(`tollgate_oat_${'a'.repeat(42)}`)).toBe(false);
    expect(looksLikeAccessToken(`polar_oat_${'a'.repeat(43)}`)).toBe(false);
  });

  it('treats a token as usable until its expiry', () => {
    expect(isTokenUsable({ expiresAt: null }, now)).toBe(true);
    expect(isTokenUsable({ expiresAt: new Date('2026-11-22T12:00:01Z') }, now)).toBe(true);
    expect(isTokenUsable({ expiresAt: now }, now)).toBe(false);
  });

  it('records use at most once a minute', () => {
    expect(shouldRecordUse(null, now)).toBe(true);
    expect(shouldRecordUse(new Date('2026-11-22T11:59:30Z'), now)).toBe(false);
    expect(shouldRecordUse(new Date('2026-11-22T11:59:00Z'), now)).toBe(true);
  });
});
