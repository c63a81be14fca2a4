import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { subdivisionLabel, subdivisionsOf } from '../../domain/addresses/rules';
import { ApiError } from '../api';
import { listCountries } from '../addresses/countries';
import { CustomFieldInput } from './custom-field-input';
import { postEmbedEvent, type EmbedTarget } from './embed';
import { focusFirstInvalid, FormField } from '../forms/form-field';
import {
  addressKey,
  buyerAmountBounds,
  buyerSeatRange,
  changedFields,
  countryChanged,
  customFieldKey,
  initialValues,
  isAddressFieldRequired,
  issuesByField,
  missingFields,
  refusedKeys,
  shownAddressFields,
  toUpdate,
  type AddressField,
  type CheckoutFormValues,
  type CustomFieldInput as CustomFieldValue,
} from './form';
import { decimalAmount } from '../../domain/money/rules';
import { formatMoney } from '../money/format';
import { SandboxCardForm, StripeCardForm, stripeElementsMode, type PaymentFormHandle } from './payment-forms';
import {
  clientCheckoutKey,
  confirmClientCheckout,
  awaitQuickOutcome,
  updateClientCheckout,
  type CheckoutUpdate,
} from './queries';
import type { CheckoutPublic } from '../../domain/checkouts/schemas';
import { rememberCheckoutPortalToken } from '../portal/session';
import type { StripeBillingDetails } from './stripe';
import { describeCheckoutPlan } from './plan';
import { BuyerAmountField, ProductChoice, SeatsField } from './price-fields';
import { CheckoutTotals } from './summary';

/** Long enough to wait for a pause in typing, short enough that totals follow the buyer. */
const PATCH_DEBOUNCE_MS = 400;

/**
 * Why the buyer is back on the form after confirming when the processor gave no reason of its own
 * (`failure_reason` in the payment processor metadata).
 */
export const DECLINED_NOTICE = 'Your payment was declined. Check your card details or use another card.';

/** What follows the refusal of a trial the buyer already had (`TrialAlreadyRedeemed`). */
const TRIAL_REFUSED_NOTICE =
  'Nothing was charged. This plan now starts without a free trial, at the price on the button: confirm again to subscribe.';

const ADDRESS_LABELS: Record<Exclude<AddressField, 'state'>, string> = {
  country: 'Country',
  line1: 'Address line 1',
  line2: 'Address line 2',
  postal_code: 'Postal code',
  city: 'City',
};

const ADDRESS_AUTOCOMPLETE: Record<AddressField, string> = {
  country: 'country',
  line1: 'address-line1',
  line2: 'address-line2',
  postal_code: 'postal-code',
  city: 'address-level2',
  state: 'address-level1',
};

/** Drops the errors of `keys` and of their sub-fields (`customer_billing_address` → `….state`). */
function withoutKeys(errors: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).filter(
      ([key]) => !keys.some((gone) => key === gone || key.startsWith(`${gone}.`)),
    ),
  );
}

function billingDetails(values: CheckoutFormValues): StripeBillingDetails {
  const text = (value: string) => value.trim() || null;
  return {
    name: text(values.name),
    email: text(values.email),
    address: values.address.country
      ? {
          country: values.address.country,
          line1: text(values.address.line1),
          line2: text(values.address.line2),
          postal_code: text(values.address.postal_code),
          city: text(values.address.city),
          state: text(values.address.state),
        }
      : null,
  };
}

function payLabel(checkout: CheckoutPublic): string {
  // The button says what subscribing commits to: a discount that ends is said to end.
  if (checkout.product.is_recurring) return `Subscribe: ${describeCheckoutPlan(checkout)}`;
  if (!checkout.is_payment_required) return 'Get it for free';
  return `Pay ${formatMoney(checkout.total_amount, checkout.currency)}`;
}

/**
 * The hosted checkout form. What the buyer types is PATCHed (debounced, only what changed) so
 * that discount, tax and total lines follow; the submit confirms with the same fields plus the
 * payment token. Errors are shown next to the field the API names.
 */
export function CheckoutForm(props: {
  checkout: CheckoutPublic;
  mode: 'sandbox' | 'live';
  embed: EmbedTarget | null;
  /** Why the buyer is back on the form (a payment that failed after confirmation). */
  notice: string | null;
}) {
  const { checkout } = props;
  const clientSecret = checkout.client_secret;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState(() => initialValues(checkout));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [generalErrors, setGeneralErrors] = useState<string[]>([]);
  const [paymentError, setPaymentError] = useState<string | null>(props.notice);
  const [pendingPatches, setPendingPatches] = useState(0);
  const [isSubmitting, setSubmitting] = useState(false);
  const [discountCode, setDiscountCode] = useState('');
  const [focusRequest, setFocusRequest] = useState(0);
  /** Where focus goes after the discount control is swapped (applied ↔ code field). */
  const [focusTarget, setFocusTarget] = useState<'remove-discount' | 'discount-code' | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const paymentForm = useRef<PaymentFormHandle>(null);
  const countries = useMemo(() => listCountries(), []);

  // What the server holds (last accepted values) and what it refused; PATCHes run one at a time.
  const accepted = useRef<CheckoutUpdate | null>(null);
  accepted.current ??= toUpdate(initialValues(checkout), checkout, { forConfirm: false });
  const refused = useRef<CheckoutUpdate>({});
  const chain = useRef<Promise<void>>(Promise.resolve());

  const addressFields = shownAddressFields(checkout, values.address.country);
  const subdivisions = subdivisionsOf(values.address.country);
  const shownKeys = new Set<string>([
    'customer_email',
    'customer_name',
    'amount',
    'seats',
    'discount_code',
    ...addressFields.map(addressKey),
    ...checkout.attached_custom_fields.map(({ custom_field: field }) => customFieldKey(field.slug)),
  ]);
  const errorOf = (key: string) => localErrors[key] ?? serverErrors[key];

  const latestCheckout = () =>
    queryClient.getQueryData<CheckoutPublic>(clientCheckoutKey(clientSecret)) ?? checkout;

  function enqueue(task: () => Promise<void>): Promise<void> {
    chain.current = chain.current.then(task);
    return chain.current;
  }

  function showFailure(failure: unknown, sent: CheckoutUpdate | null) {
    if (!(failure instanceof ApiError)) {
      setGeneralErrors([(failure as Error).message]);
      return;
    }
    if (failure.code === 'TrialAlreadyRedeemed') {
      // As Polar's page: the plan is offered again without its trial, and the buyer, told why
      // beside the button that now shows the full price, confirms again to pay it.
      const reason = failure.message;
      void enqueue(async () => {
        if (await patch({ allow_trial: false })) setPaymentError(`${reason} ${TRIAL_REFUSED_NOTICE}`);
      });
      return;
    }
    switch (failure.status) {
      case 422: {
        const { fields, general } = issuesByField(failure.issues, shownKeys);
        setServerErrors((errors) => ({ ...withoutKeys(errors, Object.keys(sent ?? {})), ...fields }));
        setGeneralErrors(general);
        if (!sent) setFocusRequest((count) => count + 1);
        return;
      }
      case 400:
        setPaymentError(failure.message);
        return;
      case 403:
      case 410:
        // Expired or no longer open: the page re-reads the checkout and shows what it has become.
        setGeneralErrors([failure.message]);
        void queryClient.invalidateQueries({ queryKey: clientCheckoutKey(clientSecret) });
        return;
      default:
        setGeneralErrors([failure.message]);
    }
  }

  /** Sends one update; the new checkout on success, null when refused (errors are shown). */
  async function patch(update: CheckoutUpdate): Promise<CheckoutPublic | null> {
    setPendingPatches((count) => count + 1);
    try {
      const next = await updateClientCheckout(clientSecret, update);
      queryClient.setQueryData(clientCheckoutKey(clientSecret), next);
      accepted.current = { ...accepted.current, ...update };
      const keys = Object.keys(update);
      refused.current = Object.fromEntries(
        Object.entries(refused.current).filter(([key]) => !keys.includes(key)),
      ) as CheckoutUpdate;
      setServerErrors((errors) => withoutKeys(errors, keys));
      setGeneralErrors([]);
      return next;
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 422) {
        const sentKeys = Object.keys(update) as (keyof CheckoutUpdate)[];
        const named = refusedKeys(failure.issues).filter((key) => sentKeys.includes(key));
        const refusedNow = Object.fromEntries(
          (named.length > 0 ? named : sentKeys).map((key) => [key, update[key]]),
        );
        refused.current = { ...refused.current, ...refusedNow };
      }
      showFailure(failure, update);
      return null;
    } finally {
      setPendingPatches((count) => count - 1);
    }
  }

  useEffect(() => {
    if (isSubmitting) return;
    const timer = setTimeout(
      () => {
        void enqueue(async () => {
          // A refused field holds back the others of its PATCH: a second round sends those.
          for (let round = 0; round < 2; round += 1) {
            const update = changedFields(
              toUpdate(values, latestCheckout(), { forConfirm: false }),
              accepted.current ?? {},
              refused.current,
            );
            if (Object.keys(update).length === 0 || (await patch(update))) return;
          }
        });
      },
      countryChanged(values, accepted.current) ? 0 : PATCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
    // Re-armed by every change of the form; the helpers read the server's side through refs.
  }, [values, isSubmitting]);

  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  useEffect(() => {
    if (!focusTarget) return;
    // The swapped control appears once the updated checkout renders, which may be a render later.
    const element = formRef.current?.querySelector<HTMLElement>(`[data-focus="${focusTarget}"]`);
    if (!element) return;
    element.focus();
    setFocusTarget(null);
  }, [focusTarget, checkout.discount_id]);

  function edit(key: string, change: (current: CheckoutFormValues) => CheckoutFormValues) {
    setValues(change);
    setLocalErrors((errors) => withoutKeys(errors, [key]));
  }
  const setAddress = (field: AddressField, value: string) =>
    edit(addressKey(field), (current) => ({ ...current, address: { ...current.address, [field]: value } }));
  // Another country's state list has other codes: a state kept across the change would be refused.
  const setCountry = (country: string) =>
    edit(addressKey('country'), (current) => ({
      ...current,
      address: {
        ...current.address,
        country,
        state: country === current.address.country ? current.address.state : '',
      },
    }));
  const setCustomField = (slug: string, value: CustomFieldValue) =>
    edit(customFieldKey(slug), (current) => ({
      ...current,
      customFields: { ...current.customFields, [slug]: value },
    }));

  function chooseProduct(productId: string) {
    void enqueue(async () => {
      const next = await patch({ product_id: productId });
      if (!next) return;
      const amount = buyerAmountBounds(next) ? next.amount : undefined;
      // Another product starts from its own seats (none when it is not sold by the seat).
      const seats = next.seats ?? undefined;
      accepted.current = { ...accepted.current, amount, seats };
      setValues((current) => ({
        ...current,
        amount: amount === undefined ? '' : decimalAmount(amount, next.currency),
        seats: seats === undefined ? '' : String(seats),
      }));
    });
  }

  function applyDiscount() {
    const code = discountCode.trim();
    if (!code) {
      setServerErrors((errors) => ({ ...errors, discount_code: 'Enter a discount code.' }));
      return;
    }
    void enqueue(async () => {
      if (await patch({ discount_code: code })) {
        setDiscountCode('');
        setFocusTarget('remove-discount');
      }
    });
  }

  function removeDiscount() {
    void enqueue(async () => {
      if (await patch({ discount_code: null })) setFocusTarget('discount-code');
    });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    setPaymentError(null);
    setGeneralErrors([]);
    const missing = missingFields(values, checkout);
    setLocalErrors(missing);
    const isCardValid = paymentForm.current?.validate() ?? true;
    if (Object.keys(missing).length > 0 || !isCardValid) {
      setFocusRequest((count) => count + 1);
      return;
    }
    setSubmitting(true);
    // A PATCH still in flight must land before the confirmation, not after it.
    await chain.current;
    const current = latestCheckout();
    try {
      const token =
        current.is_payment_form_required && paymentForm.current
          ? await paymentForm.current.tokenize(billingDetails(values))
          : null;
      const confirmed = await confirmClientCheckout(clientSecret, {
        ...toUpdate(values, current, { forConfirm: true }),
        confirmation_token_id: token,
      });
      postEmbedEvent(props.embed, { event: 'confirmed' });
      // The confirmation page links to the portal with it; later answers do not carry it.
      rememberCheckoutPortalToken(clientSecret, confirmed.customer_session_token);
      const settled = await awaitQuickOutcome(clientSecret, confirmed);
      queryClient.setQueryData(clientCheckoutKey(clientSecret), settled);
      if (settled.status === 'failed') {
        // Declined: the buyer stays on the form with the reason, never seeing "Processing…".
        setSubmitting(false);
        setPaymentError(settled.payment_processor_metadata.failure_reason ?? DECLINED_NOTICE);
        return;
      }
      await navigate({
        to: '/checkout/$clientSecret/confirmation',
        params: { clientSecret },
        search: props.embed ? { embed: true } : {},
      });
    } catch (failure) {
      setSubmitting(false);
      if (failure instanceof ApiError) showFailure(failure, null);
      else setPaymentError((failure as Error).message);
    }
  }

  const amountBounds = buyerAmountBounds(checkout);
  const seatRange = buyerSeatRange(checkout);
  const publishableKey = checkout.payment_processor_metadata.publishable_key;
  const canUseDiscountCodes = checkout.allow_discount_codes && checkout.is_discount_applicable;

  return (
    <form ref={formRef} className="checkout-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      {checkout.products.length > 1 ? (
        <ProductChoice checkout={checkout} disabled={isSubmitting} onChoose={chooseProduct} />
      ) : null}

      <fieldset className="plain-fieldset" disabled={isSubmitting}>
        {amountBounds ? (
          <BuyerAmountField
            currency={checkout.currency}
            bounds={amountBounds}
            value={values.amount}
            error={errorOf('amount')}
            onChange={(amount) => edit('amount', (current) => ({ ...current, amount }))}
          />
        ) : null}
        {seatRange ? (
          <SeatsField
            range={seatRange}
            value={values.seats}
            error={errorOf('seats')}
            onChange={(seats) => edit('seats', (current) => ({ ...current, seats }))}
          />
        ) : null}

        <FormField label="Email" field="customer_email" required error={errorOf('customer_email')}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="email"
              value={values.email}
              onChange={(event) => {
                const email = event.target.value;
                edit('customer_email', (current) => ({ ...current, email }));
              }}
            />
          )}
        </FormField>
        <FormField
          label={checkout.is_payment_form_required ? 'Cardholder name' : 'Name'}
          field="customer_name"
          required={checkout.is_payment_form_required}
          error={errorOf('customer_name')}
        >
          {(control) => (
            <input
              {...control}
              autoComplete={checkout.is_payment_form_required ? 'cc-name' : 'name'}
              value={values.name}
              onChange={(event) => {
                const name = event.target.value;
                edit('customer_name', (current) => ({ ...current, name }));
              }}
            />
          )}
        </FormField>

        <fieldset className="address">
          <legend>Billing address</legend>
          {addressFields.map((field) => (
            <FormField
              key={field}
              label={field === 'state' ? subdivisionLabel(values.address.country) : ADDRESS_LABELS[field]}
              field={addressKey(field)}
              required={isAddressFieldRequired(checkout, field)}
              error={errorOf(addressKey(field))}
            >
              {(control) =>
                field === 'country' ? (
                  <select
                    {...control}
                    autoComplete="country"
                    value={values.address.country}
                    onChange={(event) => setCountry(event.target.value)}
                  >
                    <option value="">Choose your country</option>
                    {countries.map((country) => (
                      <option key={country.code} value={country.code}>
                        {country.name}
                      </option>
                    ))}
                  </select>
                ) : field === 'state' && subdivisions ? (
                  <select
                    {...control}
                    autoComplete={ADDRESS_AUTOCOMPLETE.state}
                    value={values.address.state}
                    onChange={(event) => setAddress('state', event.target.value)}
                  >
                    <option value="">
                      Choose your {subdivisionLabel(values.address.country).toLowerCase()}
                    </option>
                    {subdivisions.map((subdivision) => (
                      <option key={subdivision.code} value={subdivision.code}>
                        {subdivision.name}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    {...control}
                    autoComplete={ADDRESS_AUTOCOMPLETE[field]}
                    value={values.address[field]}
                    onChange={(event) => setAddress(field, event.target.value)}
                  />
                )
              }
            </FormField>
          ))}
        </fieldset>

        {checkout.attached_custom_fields.map((attached) => (
          <CustomFieldInput
            key={attached.custom_field_id}
            attached={attached}
            field={customFieldKey(attached.custom_field.slug)}
            value={values.customFields[attached.custom_field.slug]}
            error={errorOf(customFieldKey(attached.custom_field.slug))}
            onChange={(value) => setCustomField(attached.custom_field.slug, value)}
          />
        ))}

        {checkout.discount && checkout.allow_discount_codes ? (
          <p className="applied-discount" data-testid="applied-discount">
            Discount <strong>{checkout.discount.code ?? checkout.discount.name}</strong> applied.{' '}
            <button
              type="button"
              className="link-button"
              data-focus="remove-discount"
              onClick={removeDiscount}
            >
              Remove discount
            </button>
          </p>
        ) : canUseDiscountCodes ? (
          <div className="discount-row">
            <FormField label="Discount code" field="discount_code" error={serverErrors.discount_code}>
              {(control) => (
                <input
                  {...control}
                  data-focus="discount-code"
                  autoComplete="off"
                  value={discountCode}
                  onChange={(event) => {
                    setDiscountCode(event.target.value);
                    setServerErrors((errors) => withoutKeys(errors, ['discount_code']));
                  }}
                  onKeyDown={(event) => {
                    // Enter applies the code rather than paying.
                    if (event.key === 'Enter') {
                      event.preventDefault();
                      applyDiscount();
                    }
                  }}
                />
              )}
            </FormField>
            <button type="button" className="secondary" onClick={applyDiscount}>
              Apply
            </button>
          </div>
        ) : null}
      </fieldset>

      <CheckoutTotals checkout={checkout} isUpdating={pendingPatches > 0} />

      {checkout.is_payment_form_required ? (
        props.mode === 'sandbox' ? (
          <SandboxCardForm ref={paymentForm} disabled={isSubmitting} />
        ) : publishableKey ? (
          <StripeCardForm
            ref={paymentForm}
            publishableKey={publishableKey}
            mode={stripeElementsMode(checkout)}
            amount={checkout.total_amount}
            currency={checkout.currency}
          />
        ) : (
          <p className="error-note" role="alert">
            Card payments are not set up on this server.
          </p>
        )
      ) : null}

      {generalErrors.length > 0 ? (
        <div className="error-note" role="alert">
          {generalErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      {paymentError ? (
        <p className="error-note" role="alert" data-testid="payment-error">
          {paymentError}
        </p>
      ) : null}

      <button type="submit" className="pay-button" disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? 'Processing…' : payLabel(checkout)}
      </button>
    </form>
  );
}
