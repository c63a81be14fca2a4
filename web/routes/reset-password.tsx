import { createFileRoute, Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/users/rules';
import { authClient, errorMessage } from '../auth/client';
import { PASSWORD_HINT, passwordLengthError } from '../auth/words';
import { FormField } from '../forms/form-field';
import { ErrorNote, Field, formValues } from '../components';

const searchSchema = z.object({
  token: z.string().optional().catch(undefined),
  error: z.string().optional().catch(undefined),
});

export const Route = createFileRoute('/reset-password')({
  validateSearch: searchSchema,
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { token, error: linkError } = Route.useSearch();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { password = '', repeat = '' } = formValues(event.currentTarget);
    const tooShort = passwordLengthError(password);
    if (tooShort) return setError(tooShort);
    if (password !== repeat) return setError('The two passwords differ.');
    const result = await authClient.resetPassword({ newPassword: password, token: token ?? '' });
    setError(errorMessage(result.error));
    setDone(!result.error);
  }

  if (linkError || !token) {
    return (
      <section className="narrow">
        <h1>Choose a new password</h1>
        <p className="error-note" role="alert">
          This reset link is invalid or has expired{linkError ? ` (${linkError})` : ''}.
        </p>
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </section>
    );
  }
  if (done) {
    return (
      <section className="narrow">
        <h1>Choose a new password</h1>
        <p role="status">Your password has been changed.</p>
        <p>
          <Link to="/sign-in">Sign in with your new password</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>Choose a new password</h1>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <FormField label="New password" field="password" hint={PASSWORD_HINT} required>
          {(control) => (
            <input
              {...control}
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={PASSWORD_MIN_LENGTH}
              maxLength={PASSWORD_MAX_LENGTH}
            />
          )}
        </FormField>
        <Field label="Repeat the new password" name="repeat" type="password" autoComplete="new-password" />
        <ErrorNote message={error} />
        <button type="submit">Change password</button>
      </form>
    </section>
  );
}
