import { useState } from 'react';
import { authClient, errorMessage } from '../../../../auth/client';
import { ErrorNote, SuccessNote } from '../../../../components';

export function VerifyEmailNotice({ email }: { email: string }) {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function resend() {
    const result = await authClient.sendVerificationEmail({ email, callbackURL: '/verify-email' });
    setError(errorMessage(result.error));
    setSent(!result.error);
  }
  return (
    <div className="notice" data-testid="verify-email-notice">
      <p>Your email address {email} is not verified yet.</p>
      <button type="button" className="secondary" onClick={() => void resend()}>
        Resend verification email
      </button>
      <SuccessNote message={sent ? `We sent a new verification link to ${email}.` : null} />
      <ErrorNote message={error} />
    </div>
  );
}
