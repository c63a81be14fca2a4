import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { FALLBACK_WAIT_SECONDS, useRetryAfterWait, withRetryAfter } from '../auth/rate-limit';
import { redirectSignedIn, refreshSession } from '../auth/session';
import { carryReturnTo, returnToSearchSchema } from '../auth/return-to';
import { WaitNotice } from '../auth/wait-notice';
import { TOO_MANY_FAILED_SIGN_INS } from '../auth/words';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/sign-in')({
  validateSearch: returnToSearchSchema,
  beforeLoad: ({ context, search }) => redirectSignedIn(context.queryClient, search.return_to),
  component: SignInPage,
});

type Credentials = { identifier: string; password: string };

function SignInPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { return_to: returnTo } = Route.useSearch();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Too many sign-ins from this address: the same sign-in goes again by itself after the wait.
  const retry = useRetryAfterWait();
  // Too many failed sign-ins of this account: the person tries again after the wait, since the
  // password they typed was likely the wrong one.
  const lock = useRetryAfterWait();

  async function signIn({ identifier, password }: Credentials) {
    setBusy(true);
    setError(null);
    // Email or username, as the person typed it.
    const { result, waitSeconds } = await withRetryAfter((fetchOptions) =>
      identifier.includes('@')
        ? authClient.signIn.email({ email: identifier, password, fetchOptions })
        : authClient.signIn.username({ username: identifier, password, fetchOptions }),
    );
    const wait = waitSeconds ?? FALLBACK_WAIT_SECONDS;
    if (result.error?.status === 429 && result.error.code !== TOO_MANY_FAILED_SIGN_INS) {
      retry.schedule(wait, () => void signIn({ identifier, password }));
      return;
    }
    setBusy(false);
    if (result.error?.status === 429) {
      lock.schedule(wait, () => undefined);
      return;
    }
    if (result.error) return setError(errorMessage(result.error));
    if (result.data && 'twoFactorRedirect' in result.data && result.data.twoFactorRedirect) {
      return navigate({ to: '/two-factor', search: carryReturnTo(returnTo) });
    }
    await refreshSession(queryClient);
    // A full load of exactly that address: the router would re-write its query (an app's `state`).
    if (returnTo) window.location.assign(returnTo);
    else await navigate({ to: '/dashboard' });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { identifier = '', password = '' } = formValues(event.currentTarget);
    void signIn({ identifier, password });
  }

  return (
    <section className="narrow">
      <h1>Sign in</h1>
      <form onSubmit={onSubmit} className="stack">
        <Field label="Email or username" name="identifier" autoComplete="username" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" />
        <ErrorNote message={error} />
        <WaitNotice
          retryAt={retry.retryAt}
          reason="Too many sign-in attempts from this address."
          next="Signing you in again"
        />
        <WaitNotice
          retryAt={lock.retryAt}
          reason="Too many failed sign-ins for this account."
          next="You can try again"
        />
        <button type="submit" disabled={busy || lock.retryAt !== null}>
          Sign in
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        New to Tollgate?{' '}
        <Link to="/sign-up" search={carryReturnTo(returnTo)}>
          Create an account
        </Link>
      </p>
    </section>
  );
}
