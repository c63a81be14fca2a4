import { createFileRoute, Link, Navigate, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/sign-up')({ component: SignUpPage });

function SignUpPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const session = authClient.useSession();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { name, email, username, password } = formValues(event.currentTarget);
    setBusy(true);
    const result = await authClient.signUp.email({
      name: name ?? '',
      email: email ?? '',
      username,
      password: password ?? '',
      // Where the emailed verification link lands once Better Auth has checked it.
      callbackURL: '/verify-email',
    });
    setBusy(false);
    if (result.error) return setError(errorMessage(result.error));
    await navigate({ to: '/dashboard' });
  }

  if (session.data) return <Navigate to="/dashboard" />;

  return (
    <section className="narrow">
      <h1>Create your account</h1>
      <form onSubmit={onSubmit} className="stack">
        <Field label="Name" name="name" autoComplete="name" />
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Username" name="username" autoComplete="username" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" />
        <ErrorNote message={error} />
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}
