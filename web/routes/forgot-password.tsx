import { createFileRoute, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { ErrorNote, Field, formValues, SuccessNote } from '../components';

export const Route = createFileRoute('/forgot-password')({ component: ForgotPasswordPage });

function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { email = '' } = formValues(event.currentTarget);
    setBusy(true);
    // The emailed link passes through /api/auth/reset-password/<token>, which checks the token and
    // redirects here with ?token= (or ?error=INVALID_TOKEN).
    const result = await authClient.requestPasswordReset({ email, redirectTo: '/reset-password' });
    setBusy(false);
    setError(errorMessage(result.error));
    setSentTo(result.error ? null : email);
  }

  return (
    <section className="narrow">
      <h1>Forgot your password?</h1>
      <p>We email you a link to choose a new one. It works for one hour.</p>
      <form onSubmit={onSubmit} className="stack">
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <ErrorNote message={error} />
        <button type="submit" disabled={busy}>
          Send reset link
        </button>
      </form>
      {/* The same answer whether or not an account uses the address: it must not reveal which do. */}
      <SuccessNote message={sentTo ? `If an account uses ${sentTo}, we sent it a reset link.` : null} />
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}
