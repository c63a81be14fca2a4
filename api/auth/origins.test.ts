import { describe, expect, it } from '@jest/globals';
import { trustedOriginsFor, untrustedOriginMessage } from './origins.js';

describe('trustedOriginsFor', () => {
  it('trusts every loopback spelling of a loopback PUBLIC_URL outside production', () => {
    expect(
      trustedOriginsFor({ publicUrl: 'http://localhost:3000', configured: [], isProduction: false }),
    ).toEqual(['http://127.0.0.1:3000', 'http://[::1]:3000']);
    expect(
      trustedOriginsFor({ publicUrl: 'http://127.0.0.1:8080', configured: [], isProduction: false }),
    ).toEqual(['http://localhost:8080', 'http://[::1]:8080']);
  });

  it('trusts only what is configured in production, or for a public address', () => {
    const configured = ['https://admin.example.com'];
    expect(trustedOriginsFor({ publicUrl: 'http://localhost:3000', configured, isProduction: true })).toEqual(
      configured,
    );
    expect(
      trustedOriginsFor({ publicUrl: 'https://pay.example.com', configured, isProduction: false }),
    ).toEqual(configured);
  });
});

describe('untrustedOriginMessage', () => {
  it('names the address to open and the settings that decide', () => {
    const message = untrustedOriginMessage('http://localhost:3000/api/auth');
    expect(message).toContain('Open http://localhost:3000 instead');
    expect(message).toContain('PUBLIC_URL');
    expect(message).toContain('TRUSTED_ORIGINS');
  });
});
