import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { z } from 'zod';
import type { CustomerPortalCustomer } from '../../domain/customer-portal/schemas';
import { customerEmailUpdateVerifiedSchema } from '../../domain/customer-sessions/schemas';
import { ApiError } from '../api';
import { ErrorNote } from '../components';
import { focusFirstInvalid, FormField } from '../forms/form-field';
import { formErrorsInWords, type FormWords } from '../forms/messages';
import { portalCall, publicPortalCall } from './api';
import { portalCustomerKey } from './queries';
import { savePortalToken } from './session';

// Changing the buyer's email address: the new one gets a link, and only opening it changes the
// address (docs/portal.md, "Changing the email address"), so a typo never takes their receipts.

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 320;
const NO_CONNECTION = 'We could not reach the server. Check your connection and try again.';
const EMAIL_WORDS: FormWords = { email: { other: 'Enter the new email address, like name@example.com.' } };

/** The address receipts and sign-in codes go to, and the form that asks to change it. */
export function EmailAddressSection({ slug, customer }: { slug: string; customer: CustomerPortalCustomer }) {
  const [isOpen, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  function fail(field: string | null, message: string | null) {
    setFieldError(field);
    setFormError(message);
    requestAnimationFrame(() => focusFirstInvalid(form.current));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    const address = email.trim();
    if (!EMAIL_PATTERN.test(address))
      return fail('Enter the new email address, like name@example.com.', null);
    if (address.toLowerCase() === customer.email) return fail('This is already your email address.', null);
    setBusy(true);
    try {
      await portalCall(slug, 'POST', '/customers/me/email-update/request', z.unknown(), { email: address });
      setSentTo(address.toLowerCase());
      setFieldError(null);
      setFormError(null);
    } catch (failure) {
      if (!(failure instanceof ApiError)) return fail(null, NO_CONNECTION);
      const found = formErrorsInWords(failure, EMAIL_WORDS);
      fail(found.fields.email ?? null, found.form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="portal-section" aria-labelledby="email-address-heading">
      <h2 id="email-address-heading">Email address</h2>
      <p>
        Receipts and sign-in codes go to <strong data-testid="current-email">{customer.email}</strong>.
      </p>
      {sentTo ? (
        <p className="success-note" role="status" data-testid="email-update-sent">
          We sent a link to {sentTo}. Open it within 30 minutes to start using this address. Until then we
          keep writing to {customer.email}.
        </p>
      ) : null}
      {isOpen ? (
        <form ref={form} className="stack portal-form" onSubmit={(event) => void onSubmit(event)} noValidate>
          <FormField
            label="New email address"
            field="email"
            required
            error={fieldError}
            hint="We send a link to it; your address changes once you open the link."
          >
            {(control) => (
              <input
                {...control}
                type="email"
                autoComplete="email"
                inputMode="email"
                maxLength={EMAIL_MAX_LENGTH}
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setFieldError(null);
                }}
              />
            )}
          </FormField>
          <ErrorNote message={formError} />
          <div className="button-row wrap-row">
            <button type="submit" aria-disabled={isBusy}>
              {isBusy ? 'Sending link…' : 'Send confirmation link'}
            </button>
            <button type="button" className="secondary" onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="secondary" onClick={() => setOpen(true)}>
          Change email address
        </button>
      )}
    </section>
  );
}

type Confirmation =
  | { kind: 'checking' }
  | { kind: 'ready' }
  | { kind: 'confirming' }
  | { kind: 'done' }
  | { kind: 'invalid'; message: string };

/**
 * The emailed link's page: it works without a session (the inbox may be on another device) and
 * signs the buyer in with the new address once they confirm.
 */
export function ConfirmEmailChange({ slug, token }: { slug: string; token: string | undefined }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<Confirmation>({ kind: 'checking' });

  useEffect(() => {
    if (!token) {
      setState({ kind: 'invalid', message: 'This link is incomplete: open the link from the email again.' });
      return;
    }
    let isCurrent = true;
    publicPortalCall(
      'GET',
      `/customers/me/email-update/check?token=${encodeURIComponent(token)}`,
      z.unknown(),
    )
      .then(() => isCurrent && setState({ kind: 'ready' }))
      .catch((failure: unknown) => {
        if (isCurrent) setState({ kind: 'invalid', message: messageOf(failure) });
      });
    return () => {
      isCurrent = false;
    };
  }, [token]);

  async function confirm() {
    if (!token || state.kind !== 'ready') return;
    setState({ kind: 'confirming' });
    try {
      const session = await publicPortalCall(
        'POST',
        '/customers/me/email-update/verify',
        customerEmailUpdateVerifiedSchema,
        { token },
      );
      queryClient.removeQueries({ queryKey: portalCustomerKey(slug) });
      savePortalToken(slug, session.token);
      setState({ kind: 'done' });
    } catch (failure) {
      setState({ kind: 'invalid', message: messageOf(failure) });
    }
  }

  return (
    <section className="checkout-message" aria-labelledby="confirm-email-heading">
      <h1 id="confirm-email-heading">Confirm your new email address</h1>
      {state.kind === 'checking' ? <p role="status">Checking your link…</p> : null}
      {state.kind === 'ready' || state.kind === 'confirming' ? (
        <>
          <p>Your account will use this address for receipts and sign-in codes.</p>
          <button type="button" aria-disabled={state.kind === 'confirming'} onClick={() => void confirm()}>
            {state.kind === 'confirming' ? 'Confirming…' : 'Confirm this email address'}
          </button>
        </>
      ) : null}
      {state.kind === 'done' ? (
        <>
          <p className="success-note" role="status" data-testid="email-update-done">
            Your email address is changed.
          </p>
          <Link to="/portal/$organizationSlug/billing" params={{ organizationSlug: slug }}>
            Go to your billing details
          </Link>
        </>
      ) : null}
      {state.kind === 'invalid' ? (
        <p className="error-note" role="alert" data-testid="email-update-error">
          {state.message}
        </p>
      ) : null}
    </section>
  );
}

function messageOf(failure: unknown): string {
  return failure instanceof ApiError ? failure.message : NO_CONNECTION;
}
