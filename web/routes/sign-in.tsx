import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { redirectSignedIn, refreshSession } from '../auth/session';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/sign-in')({
  beforeLoad: ({ context }) => redirectSignedIn(context.queryClient),
  component: SignInPage,
});

function SignInPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { identifier = '', password = '' } = formValues(event.currentTarget);
    setBusy(true);
    // Email or username, as the person typed it.
    const result = identifier.includes('@')
      ? await authClient.signIn.email({ email: identifier, password })
      : await authClient.signIn.username({ username: identifier, password });
    setBusy(false);
    if (result.error) return setError(errorMessage(result.error));
    if (result.data && 'twoFactorRedirect' in result.data && result.data.twoFactorRedirect) {
      return navigate({ to: '/two-factor' });
    }
    await refreshSession(queryClient);
    await navigate({ to: '/dashboard' });
  }

  return (
    <section className="narrow">
      <h1>Sign in</h1>
      <form onSubmit={onSubmit} className="stack">
        <Field label="Email or username" name="identifier" autoComplete="username" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" />
        <ErrorNote message={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        New to Tollgate? <Link to="/sign-up">Create an account</Link>
      </p>
    </section>
  );
}
