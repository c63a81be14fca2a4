import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { uuidv7 } from './ids.js';

describe('uuidv7', () => {
  it('is a version 7 RFC 9562 UUID carrying its millisecond', () => {
    const at = Date.UTC(2026, 10, 24, 7, 30, 0, 123);
    const id = uuidv7(at);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time: a later millisecond sorts after', () => {
    const ids = Array.from({ length: 50 }, (_, index) => uuidv7(Date.UTC(2026, 0, 1) + index * 7));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => uuidv7(0))).size).toBe(1000);
  });
});
