import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useRef, useState, type FormEvent } from 'react';
import type { CustomerProduct, CustomerSubscription } from '../../domain/customer-portal/schemas';
import { CANCELLATION_REASONS, type ProrationPreview } from '../../domain/subscriptions/schemas';
import { ApiError, formErrors } from '../api';
import { FormField } from '../forms/form-field';
import { MeteredPrices, meteredPricesOf } from '../checkouts/plan';
import { ErrorNote, formatDate } from '../components';
import {
  describeSubscriptionPrice,
  describePreviewPrice,
  hasEnded,
  hasMeteredPrice,
  isBillable,
  isResumable,
  seatsWords,
  SubscriptionStatusBadge,
} from '../subscriptions/format';
import { BenefitChanges } from '../subscriptions/benefit-changes';
import { PauseControls } from '../subscriptions/pause';
import { PortalDialog } from './dialog';
import { FailedPayment } from './failed-payment';
import { PlanChangePayment } from './plan-change-payment';
import { PendingChange } from './pending-change';
import { SeatHolders } from './seat-holders';
import { SeatChangeForm } from './seats';
import { BUYER_CANCELLATION_REASONS, describeProductPrice, signedMoney } from './format';
import { portalProrationPreviewQuery, usePortalSubscriptionChange } from './queries';

type Reason = (typeof CANCELLATION_REASONS)[number];
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

/** A failure as the buyer reads it: the API's own sentence for 403/409, a plain one otherwise. */
function failureMessage(failure: unknown): string {
  if (failure instanceof ApiError) return failure.message;
  return 'We could not reach the server. Check your connection and try again.';
}

/** "Renews on 3 Mar 2027", "Ends on …" once set to cancel, "Ended on …". */
function describePeriod(subscription: CustomerSubscription): string {
  if (hasEnded(subscription)) {
    const ended = subscription.ended_at ?? subscription.ends_at;
    return ended ? `Ended on ${formatDate(ended)}` : 'Ended';
  }
  if (subscription.cancel_at_period_end) {
    return `Ends on ${formatDate(subscription.ends_at ?? subscription.current_period_end)}`;
  }
  // Paused, or set to pause: the next payment is the resume's (pause.tsx says the state).
  if (subscription.status === 'paused' || subscription.pause_at_period_end) {
    return subscription.resumes_at
      ? `On ${formatDate(subscription.resumes_at)}, when it resumes`
      : 'When you resume';
  }
  if (!subscription.current_period_end) return 'Renews until you cancel';
  return subscription.status === 'trialing'
    ? `Trial ends on ${formatDate(subscription.current_period_end)}`
    : `Renews on ${formatDate(subscription.current_period_end)}`;
}

/** A subscription's name and state, heading its card (the buyer's, or a seat holder's). */
export function SubscriptionItemHead(props: { headingId: string; subscription: CustomerSubscription }) {
  return (
    <div className="portal-item-head">
      <h3 id={props.headingId} className="wrap">
        {props.subscription.product.name}
      </h3>
      <SubscriptionStatusBadge subscription={props.subscription} />
    </div>
  );
}

/** One subscription: what it costs, where it stands, and what the buyer can do about it. */
export function SubscriptionCard(props: {
  slug: string;
  subscription: CustomerSubscription;
  products: CustomerProduct[];
}) {
  const { subscription } = props;
  const change = usePortalSubscriptionChange(props.slug);
  const [dialog, setDialog] = useState<'cancel' | 'change' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** A plan change billed now: its payment's outcome shows in place of a notice. */
  const [billedChange, setBilledChange] = useState<{
    productName: string;
    at: number;
    previousOrderId?: string | null;
  } | null>(null);
  const [isBusy, setBusy] = useState(false);
  const actions = useRef<HTMLDivElement>(null);
  const headingId = useId();

  /** Set when a dialog's change is done: once it has closed, focus moves to the card's actions. */
  const focusAfterDialog = useRef(false);

  /** After a change the button that was pressed is gone: focus moves to the one that replaced it. */
  function focusActions() {
    requestAnimationFrame(() => actions.current?.querySelector<HTMLElement>('button')?.focus());
  }

  /** The dialog's `close` event: the page is no longer inert, so its buttons can take focus. */
  function onDialogClosed() {
    setDialog(null);
    if (focusAfterDialog.current) {
      focusAfterDialog.current = false;
      focusActions();
    }
  }

  async function keep() {
    setBusy(true);
    setError(null);
    try {
      await change(subscription.id, { cancel_at_period_end: false });
      setNotice('Your subscription continues. Thank you for staying!');
      focusActions();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function keepCurrentPlan() {
    setBusy(true);
    setError(null);
    try {
      await change(subscription.id, { pending_update: null });
      setNotice(`You stay on ${subscription.product.name}.`);
      focusActions();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const canKeep = isResumable(subscription);
  const canChange = isBillable(subscription) && !subscription.cancel_at_period_end;

  return (
    <article className="portal-item" aria-labelledby={headingId} data-testid="portal-subscription">
      <SubscriptionItemHead headingId={headingId} subscription={subscription} />
      {/* A change billed just now says itself what became of its payment (below). */}
      {billedChange ? null : <FailedPayment slug={props.slug} subscription={subscription} />}
      <dl className="portal-facts">
        <dt>Price</dt>
        <dd data-testid="subscription-amount">{describeSubscriptionPrice(subscription)}</dd>
        {subscription.seats !== null && subscription.seats !== undefined ? (
          <>
            <dt>Seats</dt>
            <dd data-testid="subscription-seats">{seatsWords(subscription.seats)}</dd>
          </>
        ) : null}
        {hasMeteredPrice(subscription.prices) ? (
          <>
            <dt>Usage</dt>
            <dd>
              <MeteredPrices
                prices={meteredPricesOf(subscription)}
                interval={subscription.recurring_interval}
                count={subscription.recurring_interval_count}
                meterInterval={subscription.product.meter_interval}
                meterIntervalCount={subscription.product.meter_interval_count}
              />
            </dd>
          </>
        ) : null}
        <dt>{subscription.cancel_at_period_end || hasEnded(subscription) ? 'Access' : 'Next payment'}</dt>
        <dd data-testid="subscription-period">{describePeriod(subscription)}</dd>
      </dl>
      {subscription.cancel_at_period_end && !hasEnded(subscription) ? (
        <p className="muted">You keep access until then, and nothing more is charged.</p>
      ) : null}
      {/* The buyer pauses only where the seller allows it; the state shows either way. */}
      <PauseControls
        subscription={subscription}
        canAct={subscription.product.organization.customer_portal_settings.subscription.pause}
        keepsBenefits={subscription.product.pause_keeps_benefits}
        onChange={(pause) => change(subscription.id, pause)}
      />
      {canChange &&
      subscription.seats != null &&
      subscription.product.organization.customer_portal_settings.subscription.update_seats ? (
        <SeatChangeForm
          slug={props.slug}
          subscription={subscription}
          onChange={(seatChange) => change(subscription.id, seatChange)}
          onDone={(outcome) => {
            if (outcome.kind === 'billed') {
              setNotice(null);
              setBilledChange({
                productName: outcome.label,
                at: Date.now(),
                previousOrderId: outcome.previousOrderId,
              });
              return;
            }
            setBilledChange(null);
            setNotice(outcome.notice);
          }}
        />
      ) : null}
      {/* The people the buyer gives the plan's seats to (docs/seats.md). */}
      {subscription.seats != null && !hasEnded(subscription) ? (
        <SeatHolders slug={props.slug} purchase={{ subscription_id: subscription.id }} />
      ) : null}
      {subscription.pending_update ? (
        <PendingChange
          pending={subscription.pending_update}
          current={subscription}
          products={props.products}
          isBusy={isBusy}
          onCancel={() => void keepCurrentPlan()}
        />
      ) : null}
      <div className="actions" ref={actions}>
        {canKeep ? (
          <button type="button" disabled={isBusy} onClick={() => void keep()}>
            {isBusy ? 'Keeping…' : 'Keep subscription'}
          </button>
        ) : null}
        {canChange ? (
          <>
            <button type="button" className="secondary" onClick={() => setDialog('change')}>
              Change plan
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setNotice(null);
                setDialog('cancel');
              }}
            >
              Cancel subscription
            </button>
          </>
        ) : null}
      </div>
      <ErrorNote message={error} />
      {notice ? (
        <p className="success-note" role="status">
          {notice}
        </p>
      ) : null}
      {billedChange ? (
        <PlanChangePayment
          key={billedChange.at}
          slug={props.slug}
          subscriptionId={subscription.id}
          productName={billedChange.productName}
          changedAt={billedChange.at}
          previousOrderId={billedChange.previousOrderId ?? null}
        />
      ) : null}
      <PortalDialog
        open={dialog === 'cancel'}
        onClose={onDialogClosed}
        title="Cancel subscription"
        testId="cancel-dialog"
      >
        <CancelForm
          subscription={subscription}
          onCancel={(reasonChange) => change(subscription.id, reasonChange)}
          onDone={() => {
            focusAfterDialog.current = true;
            setDialog(null);
            setNotice(null);
          }}
          onClose={() => setDialog(null)}
        />
      </PortalDialog>
      <PortalDialog
        open={dialog === 'change'}
        onClose={onDialogClosed}
        title="Change plan"
        testId="change-plan-dialog"
      >
        <ChangePlanForm
          slug={props.slug}
          subscription={subscription}
          products={props.products}
          onChange={(productId) => change(subscription.id, { product_id: productId })}
          onDone={(name, dueNow, later) => {
            focusAfterDialog.current = true;
            setDialog(null);
            if (later) {
              setBilledChange(null);
              setNotice(`Your plan changes to ${later.productName} on ${formatDate(later.at)}.`);
              return;
            }
            // Billed now: the card's answer decides what the buyer reads, not the change alone.
            if (dueNow > 0) {
              setNotice(null);
              setBilledChange({ productName: name, at: Date.now() });
            } else {
              setBilledChange(null);
              setNotice(`Your plan is now ${name}.`);
            }
          }}
          onClose={() => setDialog(null)}
        />
      </PortalDialog>
    </article>
  );
}

function CancelForm(props: {
  subscription: CustomerSubscription;
  onCancel: (change: {
    cancel_at_period_end: true;
    cancellation_reason: Reason | null;
    cancellation_comment: string | null;
  }) => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<Reason | ''>('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [isBusy, setBusy] = useState(false);
  const periodEnd = props.subscription.current_period_end;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onCancel({
        cancel_at_period_end: true,
        cancellation_reason: reason || null,
        cancellation_comment: comment.trim() || null,
      });
      props.onDone();
    } catch (failure) {
      const found = formErrors(failure, ['cancellation_reason', 'cancellation_comment']);
      setErrors(failure instanceof ApiError ? found : { fields: {}, form: failureMessage(failure) });
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} noValidate>
      <p>
        You keep {props.subscription.product.name}
        {periodEnd ? ` until ${formatDate(periodEnd)}` : ' until the end of the period'}; after that it stops
        and nothing more is charged. You can change your mind until then.
      </p>
      <FormField
        label="Why are you cancelling?"
        field="cancellation_reason"
        error={errors.fields.cancellation_reason}
      >
        {(control) => (
          <select
            {...control}
            value={reason}
            onChange={(event) => setReason(event.target.value as Reason | '')}
          >
            <option value="">I’d rather not say</option>
            {CANCELLATION_REASONS.map((value) => (
              <option key={value} value={value}>
                {BUYER_CANCELLATION_REASONS[value]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label="Anything else you’d like to tell us?"
        field="cancellation_comment"
        error={errors.fields.cancellation_comment}
      >
        {(control) => (
          <textarea
            {...control}
            rows={3}
            maxLength={1000}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
        )}
      </FormField>
      <ErrorNote message={errors.form} />
      <div className="button-row wrap-row">
        <button type="submit" className="danger" disabled={isBusy}>
          {isBusy ? 'Cancelling…' : 'Confirm cancellation'}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Go back
        </button>
      </div>
    </form>
  );
}

function ChangePlanForm(props: {
  slug: string;
  subscription: CustomerSubscription;
  products: CustomerProduct[];
  onChange: (productId: string) => Promise<CustomerSubscription>;
  /**
   * `dueNow`: what the preview said the change bills now, before tax; `later`: the change waits
   * for the period's end (the organization changes plans at the next period).
   */
  onDone: (productName: string, dueNow: number, later?: { productName: string; at: string }) => void;
  onClose: () => void;
}) {
  const { subscription } = props;
  const [productId, setProductId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const legendId = useId();
  const plans = props.products.filter(
    (product) => product.is_recurring && !product.is_archived && product.id !== subscription.product_id,
  );
  const preview = useQuery({
    ...portalProrationPreviewQuery(props.slug, subscription.id, productId),
    enabled: productId !== '',
  });
  const chosen = plans.find((product) => product.id === productId);

  async function onConfirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) {
      setError('Choose the plan you want to switch to.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const updated = await props.onChange(chosen.id);
      const pending = updated.pending_update;
      props.onDone(
        updated.product.name,
        preview.data?.amount_due_now ?? 0,
        pending?.product_id === chosen.id ? { productName: chosen.name, at: pending.applies_at } : undefined,
      );
    } catch (failure) {
      setError(failureMessage(failure));
      setBusy(false);
    }
  }

  if (plans.length === 0) {
    return (
      <div className="stack">
        <p>There is no other plan to switch to.</p>
        <div className="button-row">
          <button type="button" className="secondary" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="stack" onSubmit={(event) => void onConfirm(event)} noValidate>
      <fieldset className="plain-fieldset stack" aria-labelledby={legendId}>
        <legend id={legendId}>You are on {subscription.product.name}. Choose your new plan:</legend>
        {plans.map((product) => (
          <label key={product.id} className="portal-choice" data-testid="plan-option">
            <input
              type="radio"
              name="product_id"
              value={product.id}
              checked={productId === product.id}
              onChange={() => {
                setProductId(product.id);
                setError(null);
              }}
            />
            <span className="wrap">
              <strong>{product.name}</strong> <span className="muted">{describeProductPrice(product)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {productId === '' ? null : preview.error ? (
        <p className="error-note" role="alert">
          {failureMessage(preview.error)}
        </p>
      ) : preview.data ? (
        <PlanPreview preview={preview.data} />
      ) : (
        <p role="status">Working out the price…</p>
      )}
      <ErrorNote message={error} />
      <div className="button-row wrap-row">
        <button type="submit" disabled={isBusy || !preview.data}>
          {isBusy ? 'Changing…' : 'Confirm change'}
        </button>
        <button type="button" className="secondary" onClick={props.onClose}>
          Go back
        </button>
      </div>
    </form>
  );
}

function PlanPreview({ preview }: { preview: ProrationPreview }) {
  const money = (amount: number) => signedMoney(amount, preview.currency);
  return (
    <section
      className="plan-preview stack"
      aria-label="What the change costs"
      data-testid="proration-preview"
    >
      {preview.lines.length > 0 ? (
        <ul className="plain-list">
          {preview.lines.map((line, index) => (
            <li key={index} className="portal-line" data-testid="proration-line">
              <span className="wrap">{line.label}</span>
              <span className="nowrap">{money(line.amount)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {preview.proration_behavior === 'next_period' ? (
        <p data-testid="proration-applies-at">
          Your plan changes on {formatDate(preview.applies_at)}, when this period ends. Nothing is charged
          now; you keep your current plan until then.
        </p>
      ) : null}
      <dl className="portal-facts">
        <dt>Charged now</dt>
        <dd data-testid="proration-due-now">{money(preview.amount_due_now)}</dd>
        <dt>Added to your next bill</dt>
        <dd data-testid="proration-carried">{money(preview.amount_carried_to_next_invoice)}</dd>
        <dt>New price</dt>
        <dd data-testid="proration-new-amount">{describePreviewPrice(preview)}</dd>
        <dt>Next renewal</dt>
        <dd>{formatDate(preview.current_period_end)}</dd>
      </dl>
      {preview.amount_due_now > 0 ? (
        <p className="muted">Taxes, if any, are added to the amount charged now.</p>
      ) : null}
      <BenefitChanges preview={preview} reader="buyer" />
    </section>
  );
}

/** A plan change waiting for the period's end: what it moves to and when, and a way to stay. */
/** The subscriptions list's empty note, with a way to the orders when the buyer bought once. */
export function NoSubscriptions({ slug }: { slug: string }) {
  return (
    <p className="muted" data-testid="no-subscriptions">
      You have no subscriptions.{' '}
      <Link to="/portal/$organizationSlug/orders" params={{ organizationSlug: slug }}>
        See your orders
      </Link>
    </p>
  );
}
