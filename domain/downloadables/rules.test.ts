import { describe, expect, it } from '@jest/globals';
import { signDownloadToken, verifyDownloadToken } from './rules.js';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const ID = '0b9c6a4e-8a51-4a7e-9f7e-4c1a6f3f2d10';

describe('download links', () => {
  it('verify until they expire', () => {
    const token = signDownloadToken(SECRET, ID, 2_000_000_000_000);
    expect(verifyDownloadToken(SECRET, token, 1_999_999_999_999)).toEqual({
      outcome: 'valid',
      downloadableId: ID,
    });
    expect(verifyDownloadToken(SECRET, token, 2_000_000_000_000)).toEqual({ outcome: 'expired' });
  });

  it('refuse another secret, a changed id or expiry, and what is not a token', () => {
    const token = signDownloadToken(SECRET, ID, 2_000_000_000_000);
    expect(verifyDownloadToken('another-secret-of-thirty-two-characters!', token, 0).outcome).toBe('forged');
    expect(verifyDownloadToken(SECRET, token.replace('2000000000000', '2999999999999'), 0).outcome).toBe(
      'forged',
    );
    expect(verifyDownloadToken(SECRET, token.replace(ID, ID.replace('0b9c', '1b9c')), 0).outcome).toBe(
      'forged',
    );
    expect(verifyDownloadToken(SECRET, 'not-a-token', 0).outcome).toBe('malformed');
  });
});
