import { describe, expect, it } from '@jest/globals';
import { grantStatus, summarizeGrants } from './status';

const at = '2026-03-01T10:00:00.000Z';
const pending = { is_granted: false, is_revoked: false, error: null };
const granted = { ...pending, is_granted: true };
const revoked = { ...pending, is_revoked: true };
const notLinked = {
  message: 'The customer needs to connect their GitHub account.',
  type: 'account_not_linked',
  timestamp: at,
};
const failure = { message: 'connect ECONNREFUSED', type: 'grant_failed', timestamp: at };

describe('grantStatus', () => {
  it('reads the dates when no step failed', () => {
    expect(grantStatus(pending)).toBe('pending');
    expect(grantStatus(granted)).toBe('granted');
    expect(grantStatus(revoked)).toBe('revoked');
  });

  it('waits for the customer when their account is not linked', () => {
    expect(grantStatus({ ...pending, error: notLinked })).toBe('waiting');
  });

  it('is failing while an error is recorded, even on a granted or revoked grant (a later step failed)', () => {
    expect(grantStatus({ ...pending, error: failure })).toBe('failed');
    expect(grantStatus({ ...granted, error: failure })).toBe('failed');
    expect(grantStatus({ ...revoked, error: failure })).toBe('failed');
  });
});

describe('summarizeGrants', () => {
  it('counts each status present, in a fixed order', () => {
    expect(
      summarizeGrants([{ ...pending, error: notLinked }, granted, granted, { ...pending, error: failure }]),
    ).toBe('2 granted · 1 waiting for the customer · 1 failed, retrying');
  });

  it('says nothing for no grants', () => {
    expect(summarizeGrants([])).toBe('');
  });
});
