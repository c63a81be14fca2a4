import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { refreshSession } from '../auth/session';
import { returnToSearchSchema } from '../auth/return-to';
import { ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/two-factor')({
  validateSearch: returnToSearchSchema,
  component: TwoFactorChallengePage,
});

function TwoFactorChallengePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { return_to: returnTo } = Route.useSearch();
  const [useBackupCode, setUseBackupCode] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '', trust } = formValues(event.currentTarget);
    const result = useBackupCode
      ? await authClient.twoFactor.verifyBackupCode({ code, trustDevice: trust === 'on' })
      : await authClient.twoFactor.verifyTotp({ code, trustDevice: trust === 'on' });
    if (result.error) return setError(errorMessage(result.error));
    await refreshSession(queryClient);
    // A full load of exactly that address: the router would re-write its query (an app's `state`).
    if (returnTo) window.location.assign(returnTo);
    else await navigate({ to: '/dashboard' });
  }

  return (
    <section className="narrow">
      <h1>Two-factor verification</h1>
      <form onSubmit={onSubmit} className="stack">
        <Field
          label={useBackupCode ? 'Backup code' : 'Code from your authenticator app'}
          name="code"
          autoComplete="one-time-code"
          inputMode={useBackupCode ? 'text' : 'numeric'}
        />
        <label className="checkbox">
          <input type="checkbox" name="trust" /> Trust this device for 30 days
        </label>
        <ErrorNote message={error} />
        <button type="submit">Verify</button>
      </form>
      <button type="button" className="link-button" onClick={() => setUseBackupCode(!useBackupCode)}>
        {useBackupCode ? 'Use an authenticator code' : 'Use a backup code instead'}
      </button>
    </section>
  );
}
