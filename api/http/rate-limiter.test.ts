import { afterEach, describe, expect, it } from '@jest/globals';
import {
  IDLE_RELEASE_MS,
  MAX_BLOCK,
  RateLimiter,
  REFUSAL_RECHECK_MS,
  reservationSize,
  type RateLimitStore,
} from './rate-limiter.js';

const WINDOW_SECONDS = 60;

/** The counter as PostgreSQL keeps it (`reserveRequests`), on a clock the test moves. */
function sharedCounter(clock: { now: number }) {
  const rows = new Map<string, { windowStart: number; count: number }>();
  const calls = { reserve: 0, release: 0 };
  const store: RateLimitStore = {
    async reserve(key, { requested, limit, windowSeconds }) {
      calls.reserve += 1;
      // A round trip: other requests run meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      const row = rows.get(key);
      const current =
        row && row.windowStart > clock.now - windowSeconds * 1000
          ? row
          : { windowStart: clock.now, count: 0 };
      const granted = Math.min(requested, Math.max(0, limit - current.count));
      current.count += granted;
      rows.set(key, current);
      return {
        granted,
        count: current.count,
        windowStart: new Date(current.windowStart),
        now: new Date(clock.now),
      };
    },
    async release(key, windowStart, unused) {
      calls.release += 1;
      const row = rows.get(key);
      if (row && row.windowStart === windowStart.getTime()) row.count = Math.max(0, row.count - unused);
    },
  };
  return { store, calls, rows };
}

const created: RateLimiter[] = [];
afterEach(() => created.splice(0).forEach((limiter) => limiter.close()));

function setUp(limit: number, processes = 2) {
  const clock = { now: Date.parse('2026-11-22T10:00:00.000Z') };
  const counter = sharedCounter(clock);
  const limiters = Array.from(
    { length: processes },
    () => new RateLimiter(counter.store, { limit, windowSeconds: WINDOW_SECONDS, clock: () => clock.now }),
  );
  created.push(...limiters);
  return { clock, counter, limiters };
}

const allowedCount = (admissions: { allowed: boolean }[]) =>
  admissions.filter((admission) => admission.allowed).length;

describe('reservationSize', () => {
  it('starts at one, doubles, and never takes more than a sixteenth of what is left or MAX_BLOCK', () => {
    expect(reservationSize(500, 0, 0)).toBe(1);
    expect(reservationSize(500, 0, 4)).toBe(8);
    expect(reservationSize(500, 0, 64)).toBe(31);
    expect(reservationSize(500, 490, 64)).toBe(1);
    expect(reservationSize(5, 0, 64)).toBe(1);
    expect(reservationSize(1_000_000_000, 0, 4_096)).toBe(MAX_BLOCK);
  });
});

describe('RateLimiter', () => {
  it('admits exactly the limit, then refuses, when requests alternate between two processes', async () => {
    const { limiters } = setUp(5);
    const allowed: boolean[] = [];
    for (let index = 0; index < 6; index += 1) {
      allowed.push((await limiters[index % 2]!.admit('token:a')).allowed);
    }
    expect(allowed).toEqual([true, true, true, true, true, false]);
    expect((await limiters[0]!.admit('token:a')).allowed).toBe(false);
    expect((await limiters[0]!.admit('token:b')).allowed).toBe(true);
  });

  it('never admits more than the limit across processes under concurrent load', async () => {
    const { limiters } = setUp(300, 3);
    const admissions = await Promise.all(
      limiters.flatMap((limiter) => Array.from({ length: 400 }, () => limiter.admit('token:a'))),
    );
    expect(allowedCount(admissions)).toBe(300);
  });

  it('asks the shared counter once per many requests when the budget is large', async () => {
    const { limiters, counter } = setUp(1_000_000_000, 1);
    const admissions = await Promise.all(Array.from({ length: 20_000 }, () => limiters[0]!.admit('token:a')));
    expect(allowedCount(admissions)).toBe(20_000);
    expect(counter.calls.reserve).toBeLessThan(40);
  });

  it('hands a reservation to the waiting requests in the order they arrived', async () => {
    const { limiters } = setUp(5, 1);
    const admissions = await Promise.all(Array.from({ length: 8 }, () => limiters[0]!.admit('token:a')));
    expect(admissions.map((admission) => admission.allowed)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('fails every request waiting on a reservation the counter could not make, and recovers', async () => {
    const clock = { now: Date.parse('2026-11-22T10:00:00.000Z') };
    const counter = sharedCounter(clock);
    let failures = 1;
    const limiter = new RateLimiter(
      {
        ...counter.store,
        async reserve(key, options) {
          if (failures-- > 0) throw new Error('the database is unreachable');
          return counter.store.reserve(key, options);
        },
      },
      { limit: 10, windowSeconds: WINDOW_SECONDS, clock: () => clock.now },
    );
    created.push(limiter);
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => limiter.admit('token:a')));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await limiter.admit('token:a')).allowed).toBe(true);
  });

  it('gives an idle block back, so another process can admit those requests', async () => {
    const { clock, limiters, counter } = setUp(1_000);
    const [first, second] = limiters as [RateLimiter, RateLimiter];
    // A burst on the first process grows its blocks beyond what it then uses.
    const burst = await Promise.all(Array.from({ length: 20 }, () => first.admit('token:a')));
    expect(allowedCount(burst)).toBe(20);
    const reservedByFirst = counter.rows.get('token:a')!.count;
    expect(reservedByFirst).toBeGreaterThan(20);

    clock.now += IDLE_RELEASE_MS;
    first.sweep();
    await new Promise((resolve) => setImmediate(resolve));
    expect(counter.rows.get('token:a')!.count).toBe(20);

    const rest = await Promise.all(Array.from({ length: 1_000 }, () => second.admit('token:a')));
    expect(allowedCount(rest)).toBe(980);
  });

  it('answers what is left and when the window ends, and refuses from memory for a while', async () => {
    const { clock, limiters, counter } = setUp(5, 1);
    const limiter = limiters[0]!;
    expect(await limiter.admit('token:a')).toEqual({ allowed: true, remaining: 4, resetSeconds: 60 });
    clock.now += 15_500;
    for (let index = 0; index < 4; index += 1) await limiter.admit('token:a');
    expect(await limiter.admit('token:a')).toEqual({ allowed: false, remaining: 0, resetSeconds: 45 });
    const asked = counter.calls.reserve;
    expect((await limiter.admit('token:a')).allowed).toBe(false);
    expect(counter.calls.reserve).toBe(asked);
    clock.now += REFUSAL_RECHECK_MS;
    expect((await limiter.admit('token:a')).allowed).toBe(false);
    expect(counter.calls.reserve).toBe(asked + 1);
  });

  it('opens a new window once the last one ended', async () => {
    const { clock, limiters } = setUp(2, 1);
    const limiter = limiters[0]!;
    await limiter.admit('token:a');
    await limiter.admit('token:a');
    expect((await limiter.admit('token:a')).allowed).toBe(false);
    clock.now += WINDOW_SECONDS * 1000;
    expect(await limiter.admit('token:a')).toEqual({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it("reads the window's end on the counter's clock, not this process's", async () => {
    const limiter = new RateLimiter(
      {
        // The counter's clock is years off this process's; its window opened 30 s before its now.
        reserve: async () => ({
          granted: 1,
          count: 1,
          windowStart: new Date('2020-01-01T00:00:00.000Z'),
          now: new Date('2020-01-01T00:00:30.000Z'),
        }),
        release: async () => undefined,
      },
      { limit: 5, windowSeconds: WINDOW_SECONDS },
    );
    created.push(limiter);
    expect(await limiter.admit('token:a')).toEqual({ allowed: true, remaining: 4, resetSeconds: 30 });
  });
});
