import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  OAuthError,
  isOAuthScopeResource,
  isRegisteredRedirectUri,
  isUsableSession,
  redirectUriProblem,
  redirectWith,
  requestedScopes,
  verifiesCodeChallenge,
} from './rules.js';

describe('requestedScopes', () => {
  it("defaults to the client's scopes and refuses unknown or unregistered ones", () => {
    expect(requestedScopes(undefined, ['openid', 'products:read'])).toEqual(['openid', 'products:read']);
    expect(requestedScopes('products:read products:read', ['products:read'])).toEqual(['products:read']);
    expect(() => requestedScopes('nope:read', ['products:read'])).toThrow(OAuthError);
    expect(() => requestedScopes('orders:read', ['products:read'])).toThrow('not registered');
    expect(() => requestedScopes('', ['products:read'])).toThrow('No scope');
  });
});

describe('redirect URIs', () => {
  it('takes HTTPS, local HTTP and app schemes; never a fragment or remote HTTP', () => {
    expect(redirectUriProblem('https://app.example/cb')).toBeNull();
    expect(redirectUriProblem('http://localhost:3000/cb')).toBeNull();
    expect(redirectUriProblem('http://192.168.1.4/cb')).toBeNull();
    expect(redirectUriProblem('com.example.app:/cb')).toBeNull();
    expect(redirectUriProblem('http://app.example/cb')).toBe('An HTTPS URL is required.');
    expect(redirectUriProblem('https://app.example/cb#x')).toContain('fragment');
    expect(redirectUriProblem('javascript:alert(1)')).toBe('Not a redirect URI.');
  });

  it('matches exactly, so neither a prefix nor a path trick passes', () => {
    const registered = ['https://app.example/cb'];
    expect(isRegisteredRedirectUri(registered, 'https://app.example/cb')).toBe(true);
    expect(isRegisteredRedirectUri(registered, 'https://app.example/cb/../evil')).toBe(false);
    expect(isRegisteredRedirectUri(registered, 'https://app.example/cb?x=1')).toBe(false);
    expect(isRegisteredRedirectUri(registered, 'https://APP.example/cb')).toBe(false);
  });

  it('adds parameters to the query, keeping what the URI had', () => {
    expect(redirectWith('https://app.example/cb?a=1', { code: 'c', state: undefined })).toBe(
      'https://app.example/cb?a=1&code=c',
    );
  });
});

describe('verifiesCodeChallenge (RFC 7636)', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  it('checks S256 with the RFC’s example and plain', () => {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifiesCodeChallenge({ value: challenge, method: 'S256' }, verifier)).toBe(true);
    expect(verifiesCodeChallenge({ value: challenge, method: 'S256' }, `${verifier.slice(1)}x`)).toBe(false);
    expect(verifiesCodeChallenge({ value: verifier, method: 'plain' }, verifier)).toBe(true);
    expect(verifiesCodeChallenge({ value: challenge, method: 'S256' }, undefined)).toBe(false);
    expect(verifiesCodeChallenge({ value: 'short', method: 'plain' }, 'short')).toBe(false);
  });
});

describe('isOAuthScopeResource', () => {
  it("knows Polar's resources only", () => {
    expect(isOAuthScopeResource('products')).toBe(true);
    expect(isOAuthScopeResource('payments')).toBe(true);
    expect(isOAuthScopeResource('search')).toBe(false);
    expect(isOAuthScopeResource('test-clocks')).toBe(false);
  });
});

describe('isUsableSession', () => {
  const now = new Date('2026-12-02T12:00:00Z');
  const session = (expiresAt: string, banned: boolean | null = false, banExpires: string | null = null) => ({
    expiresAt: new Date(expiresAt),
    user: { banned, banExpires: banExpires ? new Date(banExpires) : null },
  });

  it('takes a live session of a user who is not banned, or whose ban has ended', () => {
    expect(isUsableSession(session('2026-12-02T12:00:01Z'), now)).toBe(true);
    expect(isUsableSession(session('2026-12-02T12:00:01Z', null), now)).toBe(true);
    expect(isUsableSession(session('2026-12-09T00:00:00Z', true, '2026-12-02T11:00:00Z'), now)).toBe(true);
  });

  it('refuses an expired session and a banned user, for good or until the ban ends', () => {
    expect(isUsableSession(session('2026-12-02T12:00:00Z'), now)).toBe(false);
    expect(isUsableSession(session('2026-12-09T00:00:00Z', true), now)).toBe(false);
    expect(isUsableSession(session('2026-12-09T00:00:00Z', true, '2026-12-03T00:00:00Z'), now)).toBe(false);
  });
});
