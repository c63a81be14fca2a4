import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent, type Ref } from 'react';
import { z } from 'zod';
import type { CustomerPortalCustomer } from '../../domain/customer-portal/schemas';
import {
  paymentMethodCreateResponseSchema,
  paymentMethodSchema,
  type PaymentMethod,
  type PaymentMethodCreateResponse,
} from '../../domain/payment-methods/schemas';
import { SandboxChallenge } from '../checkouts/authentication';
import { formatMoney } from '../money/format';
import { StripeChallenge } from './payment-confirmation';
import { ApiError, formErrors } from '../api';
import { focusFirstInvalid } from '../forms/form-field';
import { SandboxCardForm, StripeCardForm, type PaymentFormHandle } from '../checkouts/payment-forms';
import type { StripeBillingDetails } from '../checkouts/stripe';
import { ErrorNote } from '../components';
import { portalCall } from './api';
import { PortalDialog } from './dialog';
import { describePaymentMethod } from './format';
import { PortalPager } from './paging';
import {
  portalMeQuery,
  portalPaymentMethodsQuery,
  portalResourceKey,
  refreshAfterSubscriptionChange,
} from './queries';

/** How cards are typed on this server: Stripe's test numbers, or Stripe's Payment Element. */
export type CardEntry = { mode: 'sandbox' } | { mode: 'live'; publishableKey: string | null };

const SANDBOX_HINT =
  'Sandbox: save 4242 4242 4242 4242 or 5555 5555 5555 4444, see a decline with 4000 0000 0000 0002; any future date and any CVC.';

/**
 * Stripe's Payment Element collects a card to keep; no amount is charged while saving it. The
 * currency only filters which payment methods Stripe offers, and cards take every currency.
 */
const SETUP_CURRENCY = 'usd';

const NO_CONNECTION = 'We could not reach the server. Check your connection and try again.';

const LIST_ID = 'portal-cards-list';

function billingDetailsOf(customer: CustomerPortalCustomer | undefined): StripeBillingDetails {
  const address = customer?.billing_address;
  return {
    name: customer?.name ?? null,
    email: customer?.email ?? null,
    address: address
      ? {
          country: address.country,
          line1: address.line1 ?? null,
          line2: address.line2 ?? null,
          postal_code: address.postal_code ?? null,
          city: address.city ?? null,
          state: address.state ?? null,
        }
      : null,
  };
}

/** The saved card, read out by its brand and last digits rather than four dots. */
function CardName({ method, id }: { method: PaymentMethod; id?: string }) {
  const { text, spoken } = describePaymentMethod(method);
  return (
    <h3 id={id} className="wrap">
      <span aria-hidden="true" data-testid="card-label">
        {text}
      </span>
      <span className="visually-hidden">{spoken}</span>
    </h3>
  );
}

/**
 * The buyer's saved cards: which one their subscriptions renew on, making another the default,
 * deleting one (confirmed in a dialog), adding one. Refusals show beside the card they concern.
 */
export function CardsSection(props: {
  slug: string;
  entry: CardEntry;
  page: number;
  onPage: (page: number) => void;
}) {
  const { slug, page } = props;
  const queryClient = useQueryClient();
  const cards = useQuery(portalPaymentMethodsQuery(slug, page));
  const me = useQuery(portalMeQuery(slug));
  const [dialog, setDialog] = useState<{ kind: 'add' } | { kind: 'delete'; method: PaymentMethod } | null>(
    null,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const focusNoticeAfterDialog = useRef(false);
  const headingId = useId();
  const items = cards.data?.items;
  const total = cards.data?.pagination.total_count ?? 0;

  function showNotice(message: string) {
    setNotice(message);
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  /** A change of the default or a deletion moves plans, and may pay a failed renewal at once. */
  async function refresh() {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: portalResourceKey(slug, 'payment-methods') }),
      refreshAfterSubscriptionChange(queryClient, slug),
    ]);
  }

  function setError(id: string, message: string | null) {
    setErrors((current) => {
      const { [id]: _dropped, ...rest } = current;
      return message ? { ...rest, [id]: message } : rest;
    });
  }

  async function makeDefault(method: PaymentMethod) {
    if (busyId) return;
    setBusyId(method.id);
    setError(method.id, null);
    setNotice(null);
    try {
      await portalCall(slug, 'PATCH', `/customers/me/payment-methods/${method.id}`, paymentMethodSchema, {
        default: true,
      });
      await refresh();
      showNotice(`Your subscriptions now renew on your ${describePaymentMethod(method).name}.`);
    } catch (failure) {
      setError(method.id, failure instanceof ApiError ? failure.message : NO_CONNECTION);
    } finally {
      setBusyId(null);
    }
  }

  function onDialogClosed() {
    setDialog(null);
    if (focusNoticeAfterDialog.current) {
      focusNoticeAfterDialog.current = false;
      requestAnimationFrame(() => noticeRef.current?.focus());
    }
  }

  return (
    <section className="portal-section portal-cards" aria-labelledby={headingId} data-testid="portal-cards">
      <h2 id={headingId}>Cards</h2>
      <p className="muted">Your subscriptions renew on your default card.</p>
      <ErrorNote message={cards.error?.message ?? null} />
      {cards.isPending ? <p role="status">Loading your cards…</p> : null}
      {items?.length === 0 && page === 1 ? (
        <p className="muted" data-testid="no-cards">
          No saved cards. Cards you pay subscriptions with appear here.
        </p>
      ) : null}
      {items && items.length > 0 ? (
        <ul id={LIST_ID} className="portal-list" tabIndex={-1} aria-labelledby={headingId}>
          {items.map((method) => (
            <CardItem
              key={method.id}
              method={method}
              error={errors[method.id] ?? null}
              isBusy={busyId === method.id}
              onMakeDefault={() => void makeDefault(method)}
              onDelete={() => {
                setError(method.id, null);
                setNotice(null);
                setDialog({ kind: 'delete', method });
              }}
            />
          ))}
        </ul>
      ) : null}
      <PortalPager
        page={page}
        maxPage={cards.data?.pagination.max_page ?? 1}
        listId={LIST_ID}
        onPage={props.onPage}
      />
      <p
        ref={noticeRef}
        className={notice ? 'success-note' : 'visually-hidden'}
        role="status"
        tabIndex={-1}
        data-testid="cards-notice"
      >
        {notice ?? ''}
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => {
            setNotice(null);
            setDialog({ kind: 'add' });
          }}
        >
          Add a card
        </button>
      </div>
      <PortalDialog
        open={dialog?.kind === 'add'}
        onClose={onDialogClosed}
        title="Add a card"
        testId="add-card-dialog"
      >
        <AddCardForm
          slug={slug}
          entry={props.entry}
          isFirstCard={cards.data !== undefined && total === 0}
          billing={billingDetailsOf(me.data)}
          onSaved={async (method) => {
            await refresh();
            focusNoticeAfterDialog.current = true;
            setDialog(null);
            setNotice(
              method.default
                ? `Your ${describePaymentMethod(method).name} is saved. Your subscriptions renew on it.`
                : `Your ${describePaymentMethod(method).name} is saved.`,
            );
          }}
          onClose={() => setDialog(null)}
        />
      </PortalDialog>
      <PortalDialog
        open={dialog?.kind === 'delete'}
        onClose={onDialogClosed}
        title="Delete this card?"
        testId="delete-card-dialog"
      >
        {dialog?.kind === 'delete' ? (
          <DeleteCardForm
            slug={slug}
            method={dialog.method}
            hasOtherCards={total > 1}
            onDeleted={async () => {
              await refresh();
              focusNoticeAfterDialog.current = true;
              setDialog(null);
              setNotice(`Your ${describePaymentMethod(dialog.method).name} is deleted.`);
            }}
            onRefused={(message) => {
              // The refusal belongs beside the card; closing gives focus back to its Delete button.
              setError(dialog.method.id, message);
              setDialog(null);
            }}
            onClose={() => setDialog(null)}
          />
        ) : null}
      </PortalDialog>
    </section>
  );
}

function CardItem(props: {
  method: PaymentMethod;
  error: string | null;
  isBusy: boolean;
  onMakeDefault: () => void;
  onDelete: () => void;
}) {
  const { method } = props;
  const { name } = describePaymentMethod(method);
  const headingId = useId();
  return (
    <li className="portal-item" aria-labelledby={headingId} data-testid="portal-card">
      <div className="portal-item-head">
        <CardName id={headingId} method={method} />
        {method.default ? (
          <span className="badge badge-ok" data-testid="card-default">
            Default
          </span>
        ) : null}
      </div>
      <div className="actions">
        {method.default ? null : (
          <button
            type="button"
            className="secondary"
            aria-label={`Make default: ${name}`}
            aria-disabled={props.isBusy}
            onClick={props.onMakeDefault}
          >
            {props.isBusy ? 'Making default…' : 'Make default'}
          </button>
        )}
        <button type="button" className="secondary" aria-label={`Delete ${name}`} onClick={props.onDelete}>
          Delete
        </button>
      </div>
      {props.error ? (
        <p className="error-note" role="alert" data-testid="card-error">
          {props.error}
        </p>
      ) : null}
    </li>
  );
}

function DeleteCardForm(props: {
  slug: string;
  method: PaymentMethod;
  hasOtherCards: boolean;
  onDeleted: () => Promise<void>;
  onRefused: (message: string) => void;
  onClose: () => void;
}) {
  const { method } = props;
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy) return;
    setBusy(true);
    setError(null);
    try {
      await portalCall(props.slug, 'DELETE', `/customers/me/payment-methods/${method.id}`, z.unknown());
      await props.onDeleted();
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.status === 422) {
        props.onRefused(formErrors(failure, ['path.id']).fields['path.id'] ?? failure.message);
      } else {
        setError(failure instanceof ApiError ? failure.message : NO_CONNECTION);
      }
    }
  }

  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
      <p className="wrap">
        <strong>{describePaymentMethod(method).text}</strong>
      </p>
      <p>
        {method.default && props.hasOtherCards
          ? 'Your most recently added other card becomes your default, and your subscriptions renew on it.'
          : props.hasOtherCards
            ? 'Subscriptions that renew on this card will renew on your default card.'
            : 'You can add a card again at any time.'}
      </p>
      <ErrorNote message={error} />
      <div className="button-row wrap-row">
        <button type="submit" className="danger" aria-disabled={isBusy}>
          {isBusy ? 'Deleting…' : 'Delete card'}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Keep card
        </button>
      </div>
    </form>
  );
}

/** The card form this server uses, in the mode that only saves the card. */
function CardFields(props: {
  ref: Ref<PaymentFormHandle>;
  entry: CardEntry;
  disabled: boolean;
  error: string | null;
}) {
  const { entry } = props;
  if (entry.mode === 'sandbox') {
    return (
      <SandboxCardForm ref={props.ref} disabled={props.disabled} hint={SANDBOX_HINT} error={props.error} />
    );
  }
  if (entry.publishableKey) {
    return (
      <StripeCardForm
        ref={props.ref}
        publishableKey={entry.publishableKey}
        mode="setup"
        amount={0}
        currency={SETUP_CURRENCY}
        error={props.error}
      />
    );
  }
  return (
    <p className="error-note" role="alert">
      Cards can’t be added here yet. The card you pay with at checkout is saved for your subscriptions.
    </p>
  );
}

function AddCardForm(props: {
  slug: string;
  entry: CardEntry;
  isFirstCard: boolean;
  billing: StripeBillingDetails;
  onSaved: (method: PaymentMethod) => Promise<void>;
  onClose: () => void;
}) {
  const cardForm = useRef<PaymentFormHandle>(null);
  const form = useRef<HTMLFormElement>(null);
  const [setDefault, setSetDefault] = useState(props.isFirstCard);
  const [cardError, setCardError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  /** The card setup's client secret while the buyer's bank asks them to confirm the card. */
  const [bankStep, setBankStep] = useState<string | null>(null);
  const hintId = useId();
  const canSave = props.entry.mode === 'sandbox' || Boolean(props.entry.publishableKey);

  /** The card once saved; the bank's step first when the card asks for it. */
  async function answered(answer: PaymentMethodCreateResponse) {
    if (answer.status === 'requires_action') {
      setBankStep(answer.client_secret);
      return;
    }
    setBankStep(null);
    await props.onSaved(paymentMethodSchema.parse(answer));
  }

  /** After the bank's page: the server saves the card once the processor says it was confirmed. */
  async function afterBank(error: string | null) {
    const clientSecret = bankStep;
    setBankStep(null);
    if (error || !clientSecret) return fail(error, null);
    try {
      await answered(
        await portalCall(
          props.slug,
          'POST',
          '/customers/me/payment-methods/confirm',
          paymentMethodCreateResponseSchema,
          {
            setup_intent_id: clientSecret.slice(0, clientSecret.indexOf('_secret_')),
            set_default: setDefault,
          },
        ),
      );
    } catch (failure) {
      if (!(failure instanceof ApiError)) return fail(null, NO_CONNECTION);
      const found = formErrors(failure, ['setup_intent_id']);
      fail(found.fields.setup_intent_id ?? null, found.form);
    }
  }

  function fail(card: string | null, message: string | null) {
    setCardError(card);
    setFormError(message);
    setBusy(false);
    requestAnimationFrame(() => focusFirstInvalid(form.current));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isBusy || !cardForm.current) return;
    setCardError(null);
    setFormError(null);
    if (!cardForm.current.validate()) {
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    setBusy(true);
    let token: string;
    try {
      token = await cardForm.current.tokenize(props.billing);
    } catch (failure) {
      return fail((failure as Error).message, null);
    }
    try {
      const saved = await portalCall(
        props.slug,
        'POST',
        '/customers/me/payment-methods',
        paymentMethodCreateResponseSchema,
        {
          confirmation_token_id: token,
          set_default: setDefault,
          // Where the bank would send the buyer back after confirming the card.
          return_url: window.location.href,
        },
      );
      await answered(saved);
    } catch (failure) {
      if (!(failure instanceof ApiError)) return fail(null, NO_CONNECTION);
      const found = formErrors(failure, ['confirmation_token_id']);
      fail(found.fields.confirmation_token_id ?? null, found.form);
    }
  }

  if (bankStep) {
    return (
      <div className="portal-confirm-payment" data-testid="bank-authentication">
        {props.entry.mode === 'sandbox' ? (
          <SandboxChallenge
            clientSecret={bankStep}
            // A card check: the bank confirms the card, nothing is charged.
            amount={formatMoney(0, 'usd')}
            payee="saving your card"
            heading="h2"
            onAnswered={() => void afterBank(null)}
          />
        ) : props.entry.publishableKey ? (
          <StripeChallenge
            publishableKey={props.entry.publishableKey}
            clientSecret={bankStep}
            onDone={(error) => void afterBank(error)}
          />
        ) : null}
      </div>
    );
  }

  return (
    <form ref={form} className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
      <CardFields ref={cardForm} entry={props.entry} disabled={isBusy} error={cardError} />
      <div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={setDefault}
            disabled={isBusy}
            aria-describedby={hintId}
            onChange={(event) => setSetDefault(event.target.checked)}
          />
          Use this card for my subscriptions
        </label>
        <p id={hintId} className="field-hint">
          It becomes your default card. A payment that failed is charged to it right away.
        </p>
      </div>
      <ErrorNote message={formError} />
      <div className="button-row wrap-row">
        <button type="submit" aria-disabled={isBusy || !canSave} disabled={!canSave}>
          {isBusy ? 'Saving card…' : 'Save card'}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Go back
        </button>
      </div>
    </form>
  );
}
