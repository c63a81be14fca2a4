import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { describeWait, TooManyRequests, useSecondsUntil } from './rate-limit';
import { sessionQuery } from './session';

/** "Too many sign-in attempts from this address. Trying again in 8 seconds.", counting down. */
export function WaitNotice(props: { retryAt: number | null; reason: string; next: string }) {
  const left = useSecondsUntil(props.retryAt);
  if (left === null) return null;
  return (
    <p className="notice" role="status" data-testid="rate-limit-wait">
      {props.reason} {props.next} in {describeWait(left)}.
    </p>
  );
}

/**
 * The session check refused for too many requests, while its query waits to try again (its
 * `retryDelay` is the wait); null otherwise. Read from the cache without an observer of its own,
 * so that pages which need no session (the checkout, the portal) never ask for one.
 */
function useSessionWait(): TooManyRequests | null {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => {
      const state = queryClient.getQueryState(sessionQuery.queryKey);
      const reason = state?.fetchFailureReason;
      return state?.fetchStatus === 'fetching' && reason instanceof TooManyRequests ? reason : null;
    },
  );
}

/** What a page shows while its route loads: "Loading…", or the wait of a refused session check. */
export function PendingPage() {
  const wait = useSessionWait();
  if (!wait) return <p>Loading…</p>;
  return (
    <WaitNotice
      retryAt={wait.retryAt}
      reason="Too many requests from this address."
      next="Checking your session again"
    />
  );
}
