import { describe, expect, it } from '@jest/globals';
import { LocalFileStorage, UPLOAD_URL_TTL_MS } from './storage.js';

const claim = { fileId: '5b1f7b8e-8a4e-4c1e-9b1a-1b2c3d4e5f60', part: 1, maxBytes: 10, expiresAt: 2_000 };

function store(now: number, secret = 'a-secret-that-is-long-enough-for-tests') {
  return new LocalFileStorage({
    root: '/nonexistent',
    publicUrl: 'http://tollgate.test',
    secret,
    now: () => now,
  });
}

describe('LocalFileStorage upload tokens', () => {
  it('accepts its own token until it expires', () => {
    const token = store(1_000).sign(claim);
    expect(store(1_999).verify(token)).toEqual(claim);
    expect(() => store(2_000).verify(token)).toThrow('The upload URL has expired.');
  });

  it('refuses tokens signed with another secret, altered or malformed', () => {
    const token = store(1_000).sign(claim);
    expect(() => store(1_000, 'another-secret-that-is-long-enough').verify(token)).toThrow('not valid');
    const [, signature] = token.split('.');
    const altered = Buffer.from(JSON.stringify({ ...claim, maxBytes: 1e9 })).toString('base64url');
    expect(() => store(1_000).verify(`${altered}.${signature}`)).toThrow('not valid');
    expect(() => store(1_000).verify('garbage')).toThrow('not valid');
  });

  // Regression: a URL whose signature's last character was changed still worked when the change
  // only touched the bits base64url leaves unused.
  it('accepts exactly one spelling of the signature', () => {
    const token = store(1_000).sign(claim);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const accepted = [...alphabet].filter((last) => {
      try {
        store(1_000).verify(`${token.slice(0, -1)}${last}`);
        return true;
      } catch {
        return false;
      }
    });
    expect(accepted).toEqual([token.at(-1)]);
  });

  it('hands out one URL per part, expiring after the upload TTL, sized to the part', async () => {
    const { uploadId, parts } = await store(0).startUpload({
      fileId: claim.fileId,
      path: `org/${claim.fileId}/a.bin`,
      mimeType: 'application/octet-stream',
      size: 15,
      parts: [
        { number: 1, chunk_start: 0, chunk_end: 10, checksum_sha256_base64: null },
        { number: 2, chunk_start: 10, chunk_end: 20, checksum_sha256_base64: null },
      ],
    });
    expect(uploadId).toBe(claim.fileId);
    expect(parts.map((part) => part.expires_at.getTime())).toEqual([UPLOAD_URL_TTL_MS, UPLOAD_URL_TTL_MS]);
    const claims = parts.map((part) => store(0).verify(part.url.split('/').pop() ?? ''));
    expect(claims.map((entry) => [entry.part, entry.maxBytes])).toEqual([
      [1, 10],
      [2, 5],
    ]);
    expect(parts[0]?.url).toMatch(/^http:\/\/tollgate\.test\/api\/files\/upload\//);
  });
});
