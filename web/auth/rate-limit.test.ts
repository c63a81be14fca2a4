import { describe, expect, it } from '@jest/globals';
import {
  describeWait,
  retryAfterSeconds,
  retryDelayFor,
  retryUnlessExhausted,
  TooManyRequests,
  withRetryAfter,
} from './rate-limit';

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it("reads Better Auth's X-Retry-After, then Retry-After in seconds or as a date", () => {
    expect(retryAfterSeconds(new Headers({ 'x-retry-after': '7' }), now)).toBe(7);
    expect(retryAfterSeconds(new Headers({ 'retry-after': '30' }), now)).toBe(30);
    expect(retryAfterSeconds(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 12:01:05 GMT' }), now)).toBe(65);
    expect(retryAfterSeconds(new Headers({ 'x-retry-after': '0' }), now)).toBe(1);
    expect(retryAfterSeconds(new Headers(), now)).toBeNull();
  });
});

describe('describeWait', () => {
  it('says seconds and minutes in words', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(9.2)).toBe('10 seconds');
    expect(describeWait(120)).toBe('2 minutes');
    expect(describeWait(125)).toBe('2 minutes 5 seconds');
  });
});

describe('the session check after a 429', () => {
  const refused = new TooManyRequests('Too many requests.', 42, 1_000);

  it('tries again as often as it takes, after the wait that was asked for', () => {
    expect(refused.retryAt).toBe(43_000);
    expect(retryUnlessExhausted(25, refused)).toBe(true);
    expect(retryDelayFor(25, refused)).toBe(42_000);
  });

  it('tries other failures once, with the usual back-off', () => {
    expect(retryUnlessExhausted(0, new Error('offline'))).toBe(true);
    expect(retryUnlessExhausted(1, new Error('offline'))).toBe(false);
    expect(retryDelayFor(1, new Error('offline'))).toBe(2_000);
  });
});

describe('withRetryAfter', () => {
  it("keeps the wait of a 429 from the answer's headers beside the call's result", async () => {
    const answer = new Response('{}', { status: 429, headers: { 'x-retry-after': '9' } });
    const { result, waitSeconds } = await withRetryAfter(async ({ onError }) => {
      onError({ response: answer });
      return { error: { status: 429 } };
    });
    expect(result.error).toEqual({ status: 429 });
    expect(waitSeconds).toBe(9);
  });
});
