import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import { portalSignInSchema } from '../../domain/customer-sessions/schemas';
import { ApiError, formErrors } from '../api';
import { focusFirstInvalid, FormField } from '../forms/form-field';
import { ErrorNote } from '../components';
import { publicPortalCall } from './api';
import { portalCustomerKey } from './queries';
import { savePortalToken, type SessionEnd } from './session';

type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CODE_PATTERN = /^[0-9]{6}$/;

/** What the buyer reads when a call failed without saying which field (a 404, a 429, the network). */
function describeFailure(failure: unknown): string {
  if (failure instanceof ApiError) {
    if (failure.status === 404) return 'This store’s portal does not exist. Check the link you followed.';
    if (failure.status === 429) return 'Too many tries. Wait a minute, then try again.';
    return failure.message;
  }
  return 'We could not reach the server. Check your connection and try again.';
}

/**
 * Signing in by email: the buyer asks for a code (the answer is the same whether or not the
 * address is a customer's, so nobody learns who buys here), then types the 6 digits it carries.
 */
export function PortalSignIn(props: { slug: string; sellerName: string; ended: SessionEnd | null }) {
  const { slug } = props;
  const queryClient = useQueryClient();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [isBusy, setBusy] = useState(false);
  const [resent, setResent] = useState(false);
  const emailForm = useRef<HTMLFormElement>(null);
  const codeForm = useRef<HTMLFormElement>(null);

  function fail(found: Errors, form: HTMLFormElement | null) {
    setErrors(found);
    requestAnimationFrame(() => focusFirstInvalid(form));
  }

  async function requestCode(): Promise<boolean> {
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address)) {
      fail(
        { fields: { email: 'Enter the email address you used to buy, like name@example.com.' }, form: null },
        emailForm.current,
      );
      return false;
    }
    setBusy(true);
    try {
      await publicPortalCall('POST', '/sign-in/request', z.unknown(), {
        organization_slug: slug,
        email: address,
      });
      setErrors(NO_ERRORS);
      return true;
    } catch (failure) {
      const found = formErrors(failure, ['email']);
      fail(found.fields.email ? found : { fields: {}, form: describeFailure(failure) }, emailForm.current);
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function onSendCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await requestCode()) {
      setCode('');
      setResent(false);
      setStep('code');
    }
  }

  async function onResend() {
    if (await requestCode()) {
      setCode('');
      setResent(true);
    }
  }

  async function onVerify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!CODE_PATTERN.test(digits)) {
      fail({ fields: { code: 'Enter the 6 digits from the email.' }, form: null }, codeForm.current);
      return;
    }
    setBusy(true);
    try {
      const session = await publicPortalCall('POST', '/sign-in/verify', portalSignInSchema, {
        organization_slug: slug,
        email: email.trim(),
        code: digits,
      });
      // The portal's pages replace this one as soon as the token is stored; nothing of an
      // earlier buyer's may show in them.
      queryClient.removeQueries({ queryKey: portalCustomerKey(slug) });
      savePortalToken(slug, session.token);
    } catch (failure) {
      const found = formErrors(failure, ['code', 'email']);
      if (found.fields.email && !found.fields.code) {
        // The address was refused only now: back to the first step, with the reason there.
        setStep('email');
        fail({ fields: { email: found.fields.email }, form: found.form }, emailForm.current);
      } else if (found.fields.code) {
        fail(found, codeForm.current);
      } else {
        fail({ fields: {}, form: describeFailure(failure) }, codeForm.current);
      }
      setBusy(false);
    }
  }

  return (
    <section className="portal-sign-in" aria-labelledby="portal-sign-in-heading" data-testid="portal-sign-in">
      <h1 id="portal-sign-in-heading">Sign in to your purchases</h1>
      {props.ended === 'expired' ? (
        <p className="notice" role="status" data-testid="session-ended">
          Your session has ended, sign in again.
        </p>
      ) : null}
      {step === 'email' ? (
        <form ref={emailForm} className="stack" onSubmit={(event) => void onSendCode(event)} noValidate>
          <p className="muted">
            Enter the email address you used with {props.sellerName}. We’ll email you a 6-digit code.
          </p>
          <FormField label="Email" field="email" required error={errors.fields.email}>
            {(control) => (
              <input
                {...control}
                type="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </FormField>
          <ErrorNote message={errors.form} />
          <div className="button-row">
            <button type="submit" disabled={isBusy}>
              {isBusy ? 'Sending…' : 'Send code'}
            </button>
          </div>
        </form>
      ) : (
        <form ref={codeForm} className="stack" onSubmit={(event) => void onVerify(event)} noValidate>
          <p role="status" data-testid="code-sent">
            {resent ? 'We sent a new code' : 'We sent a code'} to{' '}
            <strong className="wrap">{email.trim()}</strong> if it belongs to a customer of {props.sellerName}
            . It works for 10 minutes.
          </p>
          <FormField
            label="6-digit code"
            field="code"
            required
            error={errors.fields.code}
            hint="Check your spam folder if it has not arrived after a minute."
          >
            {(control) => (
              <input
                {...control}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={7}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                // The step changed for this field: the buyer types the code next.
                autoFocus
              />
            )}
          </FormField>
          <ErrorNote message={errors.form} />
          <div className="button-row wrap-row">
            <button type="submit" disabled={isBusy}>
              {isBusy ? 'Signing in…' : 'Sign in'}
            </button>
            <button type="button" className="secondary" disabled={isBusy} onClick={() => void onResend()}>
              Send a new code
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setErrors(NO_ERRORS);
                setStep('email');
              }}
            >
              Use another email
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
