import { randomBytes } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Rows keyed by it land at the
 * end of their primary key's B-tree instead of on random pages, which keeps a table written
 * thousands of rows at a time (usage events) fast to insert as it grows. PostgreSQL 18 has
 * `uuidv7()`; the deployment's PostgreSQL 17 does not, so ids are made here.
 */
export function uuidv7(nowMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(nowMs, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
