import { useEffect, useRef, useState } from 'react';

// Better Auth refuses too many requests from one address with a 429 and the wait in seconds in
// `X-Retry-After` (its per-address limits: three sign-ins per ten seconds, a hundred requests a
// minute); our per-account sign-in back-off sends `Retry-After`. Pages say the wait and try again
// by themselves once it is over, instead of stopping on the error or on "Loading…".

/** When a 429 names no wait: Better Auth's shortest window. */
export const FALLBACK_WAIT_SECONDS = 10;

/** A refusal for too many requests, and when the next try may go. */
export class TooManyRequests extends Error {
  readonly retryAt: number;
  constructor(
    message: string,
    readonly waitSeconds: number,
    now = Date.now(),
  ) {
    super(message);
    this.name = 'TooManyRequests';
    this.retryAt = now + waitSeconds * 1000;
  }
}

/** A query's `retry`: a refusal for too many requests is tried again however often; others once. */
export const retryUnlessExhausted = (failures: number, error: unknown): boolean =>
  error instanceof TooManyRequests || failures < 1;

/** A query's `retryDelay`: the wait the refusal asked for; else TanStack Query's own back-off. */
export const retryDelayFor = (failures: number, error: unknown): number =>
  error instanceof TooManyRequests ? error.waitSeconds * 1000 : Math.min(1000 * 2 ** failures, 30_000);

/** The wait a 429 asks for, in whole seconds: `X-Retry-After`, else `Retry-After` (seconds or a date). */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  for (const name of ['x-retry-after', 'retry-after']) {
    const value = headers.get(name)?.trim();
    if (!value) continue;
    if (/^\d+$/.test(value)) return Math.max(1, Number(value));
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - now) / 1000));
  }
  return null;
}

/** "1 second", "12 seconds", "2 minutes 5 seconds". */
export function describeWait(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (minutes === 0) return unit(rest, 'second');
  return rest === 0 ? unit(minutes, 'minute') : `${unit(minutes, 'minute')} ${unit(rest, 'second')}`;
}

type AuthResult = { error: { status?: number; code?: string; message?: string } | null };
type FetchHooks = { onError: (context: { response: Response }) => void };

/**
 * A Better Auth client call that keeps the wait of a 429: its result's error carries only the
 * body, the wait is in the answer's headers.
 */
export async function withRetryAfter<R extends AuthResult>(
  call: (fetchOptions: FetchHooks) => Promise<R>,
): Promise<{ result: R; waitSeconds: number | null }> {
  let waitSeconds: number | null = null;
  const result = await call({
    onError: ({ response }) => {
      if (response.status === 429) waitSeconds = retryAfterSeconds(response.headers);
    },
  });
  return { result, waitSeconds };
}

/** Seconds left until `retryAt`, counting down once a second; null without a wait. */
export function useSecondsUntil(retryAt: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [retryAt]);
  return retryAt === null ? null : Math.max(0, Math.ceil((retryAt - now) / 1000));
}

/**
 * A form's submission refused for too many requests: `schedule` waits as asked, then calls
 * `retry` by itself; `retryAt` says until when, for the notice.
 */
export function useRetryAfterWait() {
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  function schedule(waitSeconds: number, retry: () => void) {
    window.clearTimeout(timer.current);
    setRetryAt(Date.now() + waitSeconds * 1000);
    timer.current = window.setTimeout(() => {
      setRetryAt(null);
      retry();
    }, waitSeconds * 1000);
  }
  function cancel() {
    window.clearTimeout(timer.current);
    setRetryAt(null);
  }
  return { retryAt, schedule, cancel };
}
