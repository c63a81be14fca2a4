import { createFileRoute, Link, Navigate, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/sign-in')({ component: SignInPage });

function SignInPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const session = authClient.useSession();

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
    await navigate({ to: '/dashboard' });
  }

  if (session.data) return <Navigate to="/dashboard" />;

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
