import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ProrationPreview, Subscription } from '../../../../../domain/subscriptions/schemas';
import { formErrorsInWords, type FormWords } from '../../../../forms/messages';
import { productChoiceLabel } from '../../../../catalog/format';
import { productsQuery } from '../../../../catalog/queries';
import { FormField } from '../../../../forms/form-field';
import { formatMoney } from '../../../../money/format';
import { Card, ErrorNote, formatDate, SuccessNote } from '../../../../components';
import { organizationProfileQuery } from '../../../../organizations/queries';
import { BenefitChanges } from '../../../../subscriptions/benefit-changes';
import { useSubscriptionChange } from '../../../../subscriptions/changes';
import { describePreviewPrice } from '../../../../subscriptions/format';
import { previewPlanChange, type PlanChange } from '../../../../subscriptions/queries';

type Behavior = PlanChange['proration_behavior'];
/** Why a plan cannot be chosen (one-time, archived, another currency) is the service's to say. */
const PLAN_CHANGE_WORDS: FormWords = {
  product_id: { invalid_type: 'Choose a plan from the list.' },
  proration_behavior: { other: 'Choose when the change is billed.' },
};
type Errors = { fields: Record<string, string>; form: string | null };
const NO_ERRORS: Errors = { fields: {}, form: null };

const BEHAVIORS: { value: Behavior; label: string; hint: string }[] = [
  {
    value: 'invoice',
    label: 'Bill the difference now',
    hint: 'The customer is charged (or credited) for the rest of this period today.',
  },
  {
    value: 'prorate',
    label: 'Add it to the next renewal',
    hint: 'The difference is added to (or taken off) the next renewal’s bill.',
  },
  {
    value: 'next_period',
    label: 'At the end of this period',
    hint: 'Nothing is billed now; the new plan starts with the renewal, at its price.',
  },
];

/** Only where the organization turned resetting on (its feature settings). */
const RESET_BEHAVIOR = {
  value: 'reset' as const,
  label: 'Restart the period now',
  hint: 'The new plan’s whole period is billed today, less the unused time of the current one.',
};

/** A signed amount of the preview: a credit reads "−$5.00". */
function signedMoney(amount: number, currency: string): string {
  return amount < 0 ? `−${formatMoney(-amount, currency)}` : formatMoney(amount, currency);
}

/**
 * Moves the subscription to another plan in two steps: the seller picks the plan and when the
 * difference is billed, reads what it costs (the API's preview), then confirms.
 */
export function SubscriptionPlanChange(props: { subscription: Subscription; organizationId: string }) {
  const { subscription } = props;
  const change = useSubscriptionChange(subscription.id);
  const products = useQuery(productsQuery(props.organizationId, false));
  const profile = useQuery(organizationProfileQuery(props.organizationId));
  const [productId, setProductId] = useState('');
  const [chosenBehavior, setBehavior] = useState<Behavior | null>(null);
  const [preview, setPreview] = useState<ProrationPreview | null>(null);
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [isBusy, setBusy] = useState(false);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  // The organization's default until the seller picks one.
  const behavior: Behavior =
    chosenBehavior ?? profile.data?.subscription_settings.proration_behavior ?? 'invoice';
  const plans = (products.data?.items ?? []).filter(
    (product) => product.is_recurring && product.id !== subscription.product_id,
  );
  const behaviors = profile.data?.feature_settings?.reset_proration_behavior_enabled
    ? [...BEHAVIORS, RESET_BEHAVIOR]
    : BEHAVIORS;
  const pendingProduct = subscription.pending_update
    ? (products.data?.items ?? []).find((product) => product.id === subscription.pending_update?.product_id)
    : undefined;

  async function onCancelPending() {
    setBusy(true);
    try {
      await change({ pending_update: null });
      setChangedTo(`The plan stays ${subscription.product.name}.`);
      setErrors(NO_ERRORS);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, PLAN_CHANGE_WORDS));
    } finally {
      setBusy(false);
    }
  }

  function edit(update: () => void) {
    update();
    setPreview(null);
    setErrors(NO_ERRORS);
    setChangedTo(null);
  }

  async function onPreview(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!productId) {
      setErrors({ fields: { product_id: 'Choose the new plan.' }, form: null });
      return;
    }
    setBusy(true);
    try {
      setPreview(
        await previewPlanChange(subscription.id, { product_id: productId, proration_behavior: behavior }),
      );
      setErrors(NO_ERRORS);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, PLAN_CHANGE_WORDS));
    } finally {
      setBusy(false);
    }
  }

  async function onConfirm() {
    setBusy(true);
    try {
      const updated = await change({ product_id: productId, proration_behavior: behavior });
      setChangedTo(
        updated.pending_update
          ? `Changes to ${plans.find((product) => product.id === productId)?.name ?? 'the new plan'} on ${formatDate(updated.pending_update.applies_at)}, with the renewal. Nothing is billed now.`
          : preview && preview.amount_due_now > 0
            ? `The plan is now ${updated.product.name}. ${signedMoney(preview.amount_due_now, preview.currency)} (before tax) is being charged to the customer's card: Payment attempts shows how it went.`
            : `The plan is now ${updated.product.name}.`,
      );
      setPreview(null);
      setProductId('');
      setErrors(NO_ERRORS);
    } catch (failure) {
      setErrors(formErrorsInWords(failure, PLAN_CHANGE_WORDS));
      setPreview(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Change plan">
      {subscription.pending_update ? (
        <div className="stack" data-testid="pending-change">
          <p>
            Changes to <strong>{pendingProduct?.name ?? 'another plan'}</strong> on{' '}
            {formatDate(subscription.pending_update.applies_at)}, with the renewal.
          </p>
          <div className="button-row">
            <button
              type="button"
              className="secondary"
              disabled={isBusy}
              onClick={() => void onCancelPending()}
            >
              Cancel this change
            </button>
          </div>
        </div>
      ) : null}
      <form className="stack" onSubmit={(event) => void onPreview(event)} noValidate>
        <FormField label="New plan" field="product_id" required error={errors.fields.product_id}>
          {(control) => (
            <select
              {...control}
              value={productId}
              onChange={(event) => edit(() => setProductId(event.target.value))}
            >
              <option value="">Choose a plan</option>
              {plans.map((product) => (
                <option key={product.id} value={product.id}>
                  {productChoiceLabel(product)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {products.data && plans.length === 0 ? (
          <p className="muted">The organization has no other subscription product to switch to.</p>
        ) : null}
        <fieldset className="plain-fieldset stack">
          <legend>When to bill the difference</legend>
          {behaviors.map((option) => (
            <label key={option.value} className="checkbox">
              <input
                type="radio"
                name="proration_behavior"
                value={option.value}
                checked={behavior === option.value}
                onChange={() => edit(() => setBehavior(option.value))}
              />
              <span>
                {option.label} <span className="muted">— {option.hint}</span>
              </span>
            </label>
          ))}
          {errors.fields.proration_behavior ? (
            <p className="field-error">{errors.fields.proration_behavior}</p>
          ) : null}
        </fieldset>
        {preview ? null : (
          <div className="button-row">
            <button type="submit" className="secondary" disabled={isBusy}>
              {isBusy ? 'Working out the price…' : 'Preview change'}
            </button>
          </div>
        )}
      </form>
      {preview ? (
        <PlanChangePreview
          preview={preview}
          askedBehavior={behavior}
          isBusy={isBusy}
          onConfirm={() => void onConfirm()}
          onBack={() => setPreview(null)}
        />
      ) : null}
      <ErrorNote message={errors.form} />
      <SuccessNote message={changedTo} />
    </Card>
  );
}

function PlanChangePreview(props: {
  preview: ProrationPreview;
  askedBehavior: Behavior;
  isBusy: boolean;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const { preview } = props;
  const titleId = useId();
  const money = (amount: number) => signedMoney(amount, preview.currency);
  return (
    <section className="stack plan-preview" aria-labelledby={titleId} data-testid="proration-preview">
      <h3 id={titleId}>What the change bills</h3>
      {preview.proration_behavior === 'next_period' ? (
        <p className="notice" data-testid="proration-applies-at">
          The plan changes on {formatDate(preview.applies_at)}, when this period ends: nothing is billed now,
          and the renewal bills the new plan.
        </p>
      ) : null}
      {preview.proration_behavior !== props.askedBehavior ? (
        <p className="notice">
          Moving between monthly and yearly billing starts a new period today, so the difference is billed
          now.
        </p>
      ) : null}
      {preview.lines.length > 0 ? (
        <table className="data-table">
          <thead>
            <tr>
              <th>Line</th>
              <th>Amount</th>
            </tr>
          </thead>
          <tbody>
            {preview.lines.map((line, index) => (
              <tr key={index} data-testid="proration-line">
                <td>{line.label}</td>
                <td>{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">Nothing to prorate.</p>
      )}
      <dl className="details amounts">
        <dt>Due now</dt>
        <dd data-testid="proration-due-now">
          {money(preview.amount_due_now)}
          {preview.amount_due_now > 0 ? <span className="muted"> before tax</span> : null}
        </dd>
        <dt>Carried to the next renewal</dt>
        <dd data-testid="proration-carried">{money(preview.amount_carried_to_next_invoice)}</dd>
        <dt>New amount</dt>
        <dd data-testid="proration-new-amount">{describePreviewPrice(preview)}</dd>
        <dt>Next renewal</dt>
        <dd>{formatDate(preview.current_period_end)}</dd>
      </dl>
      <BenefitChanges preview={preview} reader="seller" />
      <div className="button-row">
        <button type="button" disabled={props.isBusy} onClick={props.onConfirm}>
          {props.isBusy ? 'Changing…' : 'Confirm change'}
        </button>
        <button type="button" className="secondary" onClick={props.onBack}>
          Back
        </button>
      </div>
    </section>
  );
}
