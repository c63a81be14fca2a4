/**
 * The per-caller request budget of the payments API, shared by every API process without a row
 * lock per request: each process reserves requests from the shared counter in blocks and admits
 * requests from its own block in memory. The counter never grants more than the limit, so the
 * processes together never admit more than it either.
 *
 * Blocks start at one request and double while a caller keeps draining them, but never exceed a
 * sixteenth of what is left of the window: a small budget (or the end of a large one) is reserved
 * one request at a time, exact across processes, while a busy caller with a large budget touches
 * the counter once per many requests. A block left unused for a second is given back, so requests
 * one process reserved but no longer needs can be admitted by another.
 */

/** What the shared counter answers to a reservation. */
export type Reservation = { granted: number; count: number; windowStart: Date; now: Date };

export type RateLimitStore = {
  /** Takes up to `requested` requests of `key`'s current window, never past `limit` in all. */
  reserve(
    key: string,
    options: { requested: number; limit: number; windowSeconds: number },
  ): Promise<Reservation>;
  /** Gives back requests reserved in the window that started at `windowStart`. */
  release(key: string, windowStart: Date, unused: number): Promise<void>;
};

export type Admission = { allowed: boolean; remaining: number; resetSeconds: number };

export const MAX_BLOCK = 1_000;
export const SHARE_DIVISOR = 16;
export const IDLE_RELEASE_MS = 1_000;
/** A refused caller is answered from memory this long before the counter is asked again. */
export const REFUSAL_RECHECK_MS = 1_000;

/** How many requests to reserve next, given what is known of the window and the last block. */
export function reservationSize(limit: number, count: number, previousBlock: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor((limit - count) / SHARE_DIVISOR), previousBlock * 2));
}

type Lease = {
  windowStart: Date;
  /** When the window ends, on this process's clock (the counter's clock shifted by the offset seen). */
  endsAt: number;
  /** Reserved and not yet admitted. */
  tokens: number;
  /** The window's count after this process's last reservation or release. */
  count: number;
  block: number;
  lastUsedAt: number;
  refusedUntil: number;
};

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

export class RateLimiter {
  private readonly leases = new Map<string, Lease>();
  /** Requests waiting for a reservation in flight, per caller; present while one is. */
  private readonly waiting = new Map<
    string,
    { resolve: (admission: Admission) => void; reject: (error: unknown) => void }[]
  >();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly clock: () => number;

  constructor(
    private readonly store: RateLimitStore,
    private readonly options: {
      limit: number;
      windowSeconds: number;
      clock?: () => number;
      /** A release that failed only keeps those requests reserved until the window ends. */
      onReleaseError?: (error: unknown) => void;
    },
  ) {
    this.clock = options.clock ?? Date.now;
  }

  admit(key: string): Promise<Admission> {
    const now = this.clock();
    const lease = this.leases.get(key);
    if (lease && lease.endsAt > now) {
      if (lease.tokens > 0) return Promise.resolve(this.take(lease, now));
      if (lease.refusedUntil > now) return Promise.resolve(this.refusal(lease, now));
    }
    return new Promise((resolve, reject) => {
      const waiting = this.waiting.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else {
        this.waiting.set(key, [{ resolve, reject }]);
        void this.serve(key);
      }
    });
  }

  /** Gives back idle blocks and forgets windows that ended; runs every second while leases exist. */
  sweep(): void {
    const now = this.clock();
    for (const [key, lease] of this.leases) {
      if (lease.endsAt <= now) {
        if (!this.waiting.has(key)) this.leases.delete(key);
        continue;
      }
      if (lease.tokens === 0 || now - lease.lastUsedAt < IDLE_RELEASE_MS || this.waiting.has(key)) continue;
      const unused = lease.tokens;
      lease.tokens = 0;
      lease.count -= unused;
      // The caller slowed down: its next reservation starts small again.
      lease.block = 0;
      this.store.release(key, lease.windowStart, unused).catch((error: unknown) => {
        this.options.onReleaseError?.(error);
      });
    }
    if (this.leases.size === 0) this.close();
  }

  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private take(lease: Lease, now: number): Admission {
    lease.tokens -= 1;
    lease.lastUsedAt = now;
    return {
      allowed: true,
      remaining: Math.max(0, this.options.limit - lease.count + lease.tokens),
      resetSeconds: secondsUntil(lease.endsAt, now),
    };
  }

  private refusal(lease: Lease, now: number): Admission {
    return { allowed: false, remaining: 0, resetSeconds: secondsUntil(lease.endsAt, now) };
  }

  /**
   * One reservation in flight per caller, however many requests wait for it: each block is handed
   * to the waiting requests in arrival order and only those left over wait for the next one, so a
   * burst of n requests costs O(n) work rather than waking every waiter once per block.
   */
  private async serve(key: string): Promise<void> {
    const waiting = this.waiting.get(key)!;
    // An index, not shift(): shifting a long array moves every element left each time.
    let next = 0;
    try {
      while (next < waiting.length) {
        const { lease, granted } = await this.reserve(key);
        const now = this.clock();
        if (granted === 0) {
          while (next < waiting.length) waiting[next++]!.resolve(this.refusal(lease, now));
          break;
        }
        while (lease.tokens > 0 && next < waiting.length) waiting[next++]!.resolve(this.take(lease, now));
      }
    } catch (error) {
      while (next < waiting.length) waiting[next++]!.reject(error);
    } finally {
      this.waiting.delete(key);
    }
  }

  private async reserve(key: string): Promise<{ lease: Lease; granted: number }> {
    const { limit, windowSeconds } = this.options;
    const previous = this.leases.get(key);
    const known = previous && previous.endsAt > this.clock() ? previous.count : 0;
    const requested = reservationSize(limit, known, previous?.block ?? 0);
    const reservation = await this.store.reserve(key, { requested, limit, windowSeconds });
    const now = this.clock();
    const endsAt = now + reservation.windowStart.getTime() + windowSeconds * 1000 - reservation.now.getTime();
    const current = this.leases.get(key);
    // Requests left from an earlier window are worth nothing in this one.
    const lease: Lease =
      current && current.windowStart.getTime() === reservation.windowStart.getTime()
        ? current
        : {
            windowStart: reservation.windowStart,
            endsAt,
            tokens: 0,
            count: 0,
            block: 0,
            lastUsedAt: now,
            refusedUntil: 0,
          };
    lease.endsAt = endsAt;
    lease.tokens += reservation.granted;
    lease.count = reservation.count;
    lease.block = requested;
    lease.lastUsedAt = now;
    lease.refusedUntil = reservation.granted === 0 ? Math.min(endsAt, now + REFUSAL_RECHECK_MS) : 0;
    this.leases.set(key, lease);
    this.sweeper ??= setInterval(() => this.sweep(), IDLE_RELEASE_MS).unref();
    return { lease, granted: reservation.granted };
  }
}
