import { describe, expect, it } from '@jest/globals';
import { isOwnPage, needsRenewal, signLinkState, verifyLinkState, withLinkError } from './rules.js';

const SECRET = 'a-deployment-secret-that-is-long-enough';
const STATE = {
  customerId: '0b7f6d1e-7c1a-4a57-9a55-0d1d7f0c2b11',
  platform: 'github' as const,
  returnTo: 'https://billing.example.com/portal/acme',
};

describe('signLinkState / verifyLinkState', () => {
  it('gives back the customer, platform and page it was signed with, until it expires', () => {
    const state = signLinkState(SECRET, STATE, 2_000);
    expect(verifyLinkState(SECRET, state, 1_999)).toEqual({ outcome: 'valid', ...STATE });
    expect(verifyLinkState(SECRET, state, 2_000)).toEqual({ outcome: 'expired' });
  });

  it('refuses a state signed with another secret, or changed', () => {
    const state = signLinkState(SECRET, STATE, 2_000);
    expect(verifyLinkState('another-secret-that-is-long-enough-too', state, 0)).toEqual({
      outcome: 'forged',
    });
    const [payload, signature] = state.split('.') as [string, string];
    const other = Buffer.from(
      JSON.stringify({ c: STATE.customerId, p: 'discord', r: STATE.returnTo, e: 2_000 }),
    ).toString('base64url');
    expect(verifyLinkState(SECRET, `${other}.${signature}`, 0)).toEqual({ outcome: 'forged' });
    expect(verifyLinkState(SECRET, `${payload}.${signature.slice(1)}x`, 0)).toEqual({ outcome: 'forged' });
  });

  it('calls anything else malformed', () => {
    for (const state of ['', 'abc', 'a.b.c', `${'x'.repeat(10)}.${'y'.repeat(10)}`]) {
      expect(verifyLinkState(SECRET, state, 0)).toEqual({ outcome: 'malformed' });
    }
  });
});

describe('isOwnPage', () => {
  it('accepts pages under PUBLIC_URL, its path included', () => {
    expect(
      isOwnPage('https://billing.example.com/portal/acme?tab=benefits', 'https://billing.example.com'),
    ).toBe(true);
    expect(isOwnPage('https://example.com/billing/portal/acme', 'https://example.com/billing')).toBe(true);
    expect(isOwnPage('https://example.com/billing', 'https://example.com/billing')).toBe(true);
  });

  it('refuses other hosts, schemes, ports, sibling paths and credentials', () => {
    const base = 'https://billing.example.com';
    for (const url of [
      'https://billing.example.com.evil.test/portal',
      'http://billing.example.com/portal',
      'https://billing.example.com:8443/portal',
      'https://user:pass@billing.example.com/portal',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(isOwnPage(url, base)).toBe(false);
    }
    expect(isOwnPage('https://example.com/billing-evil/x', 'https://example.com/billing')).toBe(false);
  });
});

describe('withLinkError', () => {
  it('keeps the page and its query, adding oauth_error', () => {
    expect(withLinkError('https://billing.example.com/portal/acme?tab=benefits', 'access_denied')).toBe(
      'https://billing.example.com/portal/acme?tab=benefits&oauth_error=access_denied',
    );
  });
});

describe('needsRenewal', () => {
  it('renews a token within a minute of expiring, never one without an expiry', () => {
    expect(needsRenewal(null, 0)).toBe(false);
    expect(needsRenewal(new Date(120_000), 0)).toBe(false);
    expect(needsRenewal(new Date(60_000), 0)).toBe(true);
    expect(needsRenewal(new Date(0), 1)).toBe(true);
  });
});
