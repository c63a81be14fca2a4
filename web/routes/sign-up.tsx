import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/users/rules';
import { authClient } from '../auth/client';
import { FALLBACK_WAIT_SECONDS, useRetryAfterWait, withRetryAfter } from '../auth/rate-limit';
import { redirectSignedIn, refreshSession } from '../auth/session';
import { carryReturnTo, returnToSearchSchema } from '../auth/return-to';
import { WaitNotice } from '../auth/wait-notice';
import { PASSWORD_CODES, PASSWORD_HINT, passwordLengthError } from '../auth/words';
import { FormField } from '../forms/form-field';
import { ErrorNote, Field, formValues } from '../components';
import { authErrorsInWords, NO_ERRORS, type FormErrors } from '../forms/messages';

export const Route = createFileRoute('/sign-up')({
  validateSearch: returnToSearchSchema,
  beforeLoad: ({ context, search }) => redirectSignedIn(context.queryClient, search.return_to),
  component: SignUpPage,
});

type SignUp = { name: string; email: string; username: string; password: string };

function SignUpPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { return_to: returnTo } = Route.useSearch();
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const wait = useRetryAfterWait();

  async function signUp(values: SignUp) {
    setBusy(true);
    const { result, waitSeconds } = await withRetryAfter((fetchOptions) =>
      authClient.signUp.email({
        ...values,
        // Where the emailed verification link lands once Better Auth has checked it.
        callbackURL: '/verify-email',
        fetchOptions,
      }),
    );
    if (result.error?.status === 429) {
      setErrors(NO_ERRORS);
      // Better Auth's per-address limit: the same sign-up goes again once the wait is over.
      wait.schedule(waitSeconds ?? FALLBACK_WAIT_SECONDS, () => void signUp(values));
      return;
    }
    setBusy(false);
    if (result.error) return setErrors(authErrorsInWords(result.error, {}, PASSWORD_CODES));
    await refreshSession(queryClient);
    // A full load of exactly that address: the router would re-write its query (an app's `state`).
    if (returnTo) window.location.assign(returnTo);
    else await navigate({ to: '/dashboard' });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { name = '', email = '', username = '', password = '' } = formValues(event.currentTarget);
    const tooShort = passwordLengthError(password);
    if (tooShort) return setErrors({ fields: { password: tooShort }, form: null });
    void signUp({ name, email, username, password });
  }

  return (
    <section className="narrow">
      <h1>Create your account</h1>
      <form onSubmit={onSubmit} className="stack" noValidate>
        <Field label="Name" name="name" autoComplete="name" />
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Username" name="username" autoComplete="username" />
        <FormField
          label="Password"
          field="password"
          hint={PASSWORD_HINT}
          error={errors.fields.password}
          required
        >
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
        <ErrorNote message={errors.form} />
        <WaitNotice
          retryAt={wait.retryAt}
          reason="Too many sign-ups from this address."
          next="Creating your account"
        />
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      <p>
        Already have an account?{' '}
        <Link to="/sign-in" search={carryReturnTo(returnTo)}>
          Sign in
        </Link>
      </p>
    </section>
  );
}
