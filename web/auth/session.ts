import { QueryObserver, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { authClient, errorMessage, hasRole, unwrap } from './client';
import {
  FALLBACK_WAIT_SECONDS,
  retryDelayFor,
  retryUnlessExhausted,
  TooManyRequests,
  withRetryAfter,
} from './rate-limit';

async function fetchSession() {
  const { result, waitSeconds } = await withRetryAfter((fetchOptions) =>
    authClient.getSession({ fetchOptions }),
  );
  if (result.error?.status === 429) {
    throw new TooManyRequests(errorMessage(result.error) ?? '', waitSeconds ?? FALLBACK_WAIT_SECONDS);
  }
  return unwrap(Promise.resolve(result));
}

/**
 * The signed-in user and their session (with the active organization), or null when signed out.
 * A check refused for too many requests waits as asked and tries again, as often as it takes:
 * the guards await it, and the pending page says the wait (`PendingPage`).
 */
export const sessionQuery = queryOptions({
  queryKey: ['auth', 'session'],
  queryFn: fetchSession,
  retry: retryUnlessExhausted,
  retryDelay: retryDelayFor,
});

export type Session = NonNullable<Awaited<ReturnType<typeof fetchSession>>>;

export function useSession() {
  return useQuery(sessionQuery);
}

/**
 * Reads the session again and waits for it. A page that navigates right after signing in or out
 * calls it first: the next route's `beforeLoad` must see the new session, and Better Auth's own
 * notice (see `watchSession`) arrives a moment after the call has returned.
 */
export async function refreshSession(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey, refetchType: 'all' });
}

/** `beforeLoad` of pages for signed-in users: the session, or a redirect to sign-in. */
export async function requireSession(queryClient: QueryClient): Promise<Session> {
  const session = await queryClient.ensureQueryData(sessionQuery);
  if (!session) throw redirect({ to: '/sign-in' });
  return session;
}

/**
 * `beforeLoad` of the sign-in and sign-up pages: someone signed in goes where they were going
 * (`return_to`, e.g. an app's consent page), else to the dashboard.
 */
export async function redirectSignedIn(queryClient: QueryClient, returnTo?: string): Promise<void> {
  if (!(await queryClient.ensureQueryData(sessionQuery))) return;
  throw returnTo ? redirect({ href: returnTo }) : redirect({ to: '/dashboard' });
}

/**
 * Keeps the cached session in step with Better Auth, and the router in step with the session:
 * - Better Auth flips its `$sessionSignal` after every call that changes the session (signing in
 *   or out, two-factor, choosing, creating, leaving or deleting an organization, accepting an
 *   invitation, impersonation); the session is read again then.
 * - The observer keeps the session query active, so it is also read again on window focus, as
 *   Better Auth's own `useSession` did. When a read differs from the previous one, the router runs
 *   its guards and loaders again: a page whose session ended goes to sign-in, and pages see the
 *   new session in their route context.
 */
export function watchSession(queryClient: QueryClient, router: { invalidate: () => Promise<unknown> }): void {
  authClient.$store.listen('$sessionSignal', (_value, previous) => {
    // listen() also calls back at once with the current value, which is no change.
    if (previous === undefined) return;
    void refreshSession(queryClient);
  });
  let lastRead: string | undefined;
  new QueryObserver(queryClient, sessionQuery).subscribe(({ data, isSuccess }) => {
    if (!isSuccess) return;
    // Compared as JSON: each read parses fresh Date objects, so equal sessions are never the same object.
    const read = JSON.stringify(data);
    if (lastRead !== undefined && read !== lastRead) void router.invalidate();
    lastRead = read;
  });
}

/** Thrown by the admin pages' guard, so that none of them loads for someone else. */
export class NotAnAdministrator extends Error {}

/** `beforeLoad` of the admin pages; Better Auth would refuse their calls anyway, this says so first. */
export function requireAdministrator(session: Session): void {
  if (!hasRole(session.user.role, 'admin')) throw new NotAnAdministrator();
}
