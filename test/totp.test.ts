import { describe, expect, it } from '@jest/globals';
import { totpCode } from './totp.js';

describe('totpCode', () => {
  // RFC 6238 appendix B test vector for SHA-1 (secret "12345678901234567890"), last 6 digits.
  it('matches the RFC 6238 test vectors', () => {
    const uri = 'otpauth://totp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(totpCode(uri, 59_000)).toBe('287082');
    expect(totpCode(uri, 1_111_111_109_000)).toBe('081804');
    expect(totpCode(uri, 1_234_567_890_000)).toBe('005924');
  });
});
