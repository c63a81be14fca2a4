import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { redirectSignedIn, refreshSession } from '../auth/session';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/sign-up')({
  beforeLoad: ({ context }) => redirectSignedIn(context.queryClient),
  component: SignUpPage,
});

function SignUpPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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
    await refreshSession(queryClient);
    await navigate({ to: '/dashboard' });
  }

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
