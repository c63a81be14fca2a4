import { describe, expect, it } from '@jest/globals';
import { MAX_SIGN_IN_LOCK_SECONDS, signInLockSeconds, signInThrottleKey } from './rules.js';

describe('signInLockSeconds', () => {
  it('lets the first four failures go, then doubles the wait from 30 s up to 15 minutes', () => {
    expect([1, 2, 3, 4].map(signInLockSeconds)).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8, 9].map(signInLockSeconds)).toEqual([30, 60, 120, 240, 480]);
    expect(signInLockSeconds(10)).toBe(MAX_SIGN_IN_LOCK_SECONDS);
    expect(signInLockSeconds(40)).toBe(MAX_SIGN_IN_LOCK_SECONDS);
  });
});

describe('signInThrottleKey', () => {
  it('counts an account once, however it was named, and anything typed alike', () => {
    expect(signInThrottleKey('0b7d', 'ada@example.test')).toBe('user:0b7d');
    expect(signInThrottleKey(null, ' Ada@Example.test ')).toBe('typed:ada@example.test');
  });
});
