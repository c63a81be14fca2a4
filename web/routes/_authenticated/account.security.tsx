import { createFileRoute } from '@tanstack/react-router';
import QRCode from 'qrcode';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../auth/client';
import { Card, ErrorNote, Field, formValues } from '../../components';

export const Route = createFileRoute('/_authenticated/account/security')({ component: SecurityPage });

type Enrollment = { totpURI: string; secret: string; qrCode: string; backupCodes: string[] };

function SecurityPage() {
  const { session } = Route.useRouteContext();
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(false);
  const isEnabled = enabled || Boolean(session.user.twoFactorEnabled);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { password = '' } = formValues(event.currentTarget);
    const result = await authClient.twoFactor.enable({ password });
    if (result.error) return setError(errorMessage(result.error));
    if (!result.data || !('totpURI' in result.data))
      return setError('The server did not return an authenticator secret.');
    const { totpURI, backupCodes } = result.data;
    const secret = new URL(totpURI).searchParams.get('secret') ?? '';
    setEnrollment({ totpURI, secret, backupCodes, qrCode: await QRCode.toDataURL(totpURI) });
    setError(null);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { code = '' } = formValues(event.currentTarget);
    const result = await authClient.twoFactor.verifyTotp({ code });
    if (result.error) return setError(errorMessage(result.error));
    setEnrollment(null);
    setEnabled(true);
    setError(null);
  }

  return (
    <section>
      <h1>Security</h1>
      <Card title="Two-factor authentication">
        {isEnabled && !enrollment ? (
          <p data-testid="two-factor-status">Two-factor authentication is on.</p>
        ) : null}
        {!isEnabled && !enrollment ? (
          <form onSubmit={start} className="inline-form">
            <Field label="Current password" name="password" type="password" autoComplete="current-password" />
            <button type="submit">Set up two-factor authentication</button>
          </form>
        ) : null}
        {enrollment ? (
          <div className="stack">
            <p>Scan this code with your authenticator app, or type the secret.</p>
            <img src={enrollment.qrCode} alt="QR code for your authenticator app" width={200} height={200} />
            <p>
              Secret: <code data-testid="totp-secret">{enrollment.secret}</code>
            </p>
            <p>Backup codes (each works once; keep them somewhere safe):</p>
            <ul className="backup-codes">
              {enrollment.backupCodes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ul>
            <form onSubmit={confirm} className="inline-form">
              <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" />
              <button type="submit">Turn on two-factor authentication</button>
            </form>
          </div>
        ) : null}
        <ErrorNote message={error} />
      </Card>
    </section>
  );
}
