import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { FormField } from '../forms/form-field';
import {
  loadStripe,
  type StripeBillingDetails,
  type StripeClient,
  type StripeElements,
  type StripePaymentElement,
} from './stripe';
import { BRAND_NAMES } from './card-brands';
import { sendJson } from '../api';
import { sandboxConfirmationTokenSchema } from '../../domain/payments/schemas';
import {
  detectCardBrand,
  normalizeCardNumber,
  TEST_CARDS,
  validateTestCardForm,
  type CardFormErrors,
} from '../../domain/payments/test-cards';

/** What the checkout form asks of whichever card form is shown. */
export type PaymentFormHandle = {
  /** Checks what can be checked in the browser and shows what is wrong; false stops the submit. */
  validate(): boolean;
  /** The `confirmation_token_id` for the confirmation; throws with a message for the buyer. */
  tokenize(billing: StripeBillingDetails): Promise<string>;
};

/** Groups digits as they are printed on the card: 4-6-5 for American Express, fours otherwise. */
function groupCardNumber(input: string): string {
  const digits = normalizeCardNumber(input).replace(/\D/g, '').slice(0, 19);
  const groups = detectCardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let index = 0;
  for (const size of groups) {
    if (index >= digits.length) break;
    parts.push(digits.slice(index, index + size));
    index += size;
  }
  return parts.join(' ');
}

/** "1234" → "12 / 34" as it is typed, the way card forms write an expiry date. */
function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** Stripe's test numbers grouped for reading, with what each does (domain/payments/test-cards). */
function TestCardList() {
  return (
    <details className="test-cards">
      <summary>Test cards</summary>
      <ul>
        {TEST_CARDS.map((card) => (
          <li key={card.number}>
            <code>{groupCardNumber(card.number)}</code> {card.outcome}
          </li>
        ))}
      </ul>
    </details>
  );
}

const SANDBOX_PAYMENT_HINT =
  'Sandbox: pay with 4242 4242 4242 4242, see a decline with 4000 0000 0000 0002; any future date and any CVC.';

/**
 * The card form in sandbox mode: Stripe's test card numbers, checked here as a card form checks
 * them (domain/payments/test-cards), then made into a sandbox ConfirmationToken of the test
 * PaymentMethod they stand for and the expiry typed (as Stripe.js makes one in live mode), so a
 * saved card keeps that expiry. The number and the CVC never leave the browser.
 */
export function SandboxCardForm({
  ref,
  disabled,
  hint = SANDBOX_PAYMENT_HINT,
  error = null,
}: {
  ref: Ref<PaymentFormHandle>;
  disabled: boolean;
  /** What to type here; the checkout pays, the portal only saves a card. */
  hint?: string;
  /** The server's refusal of the card (a decline), shown under its number. */
  error?: string | null;
}) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<CardFormErrors>({});
  const brand = detectCardBrand(normalizeCardNumber(number));

  useImperativeHandle(ref, () => ({
    validate() {
      const result = validateTestCardForm({ number, expiry, cvc }, new Date());
      setErrors(result.ok ? {} : result.errors);
      return result.ok;
    },
    async tokenize() {
      const result = validateTestCardForm({ number, expiry, cvc }, new Date());
      if (!result.ok) throw new Error('Check your card details.');
      const token = await sendJson(
        'POST',
        '/api/sandbox/confirmation-tokens',
        {
          payment_method: result.paymentMethodId,
          card: { exp_month: result.expiry.month, exp_year: result.expiry.year },
        },
        sandboxConfirmationTokenSchema,
      );
      return token.id;
    },
  }));

  return (
    <fieldset className="card-form" disabled={disabled}>
      <legend>Card</legend>
      <p className="field-hint">{hint}</p>
      <TestCardList />
      <FormField
        label="Card number"
        field="card.number"
        required
        error={errors.number ?? error}
        hint={brand ? BRAND_NAMES[brand] : null}
      >
        {(control) => (
          <input
            {...control}
            name="cardnumber"
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="1234 1234 1234 1234"
            value={number}
            onChange={(event) => setNumber(groupCardNumber(event.target.value))}
          />
        )}
      </FormField>
      <div className="field-row">
        <FormField label="Expiry date" field="card.expiry" required error={errors.expiry}>
          {(control) => (
            <input
              {...control}
              name="exp-date"
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM / YY"
              value={expiry}
              onChange={(event) => setExpiry(formatExpiry(event.target.value))}
            />
          )}
        </FormField>
        <FormField label="Security code" field="card.cvc" required error={errors.cvc}>
          {(control) => (
            <input
              {...control}
              name="cvc"
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="CVC"
              maxLength={4}
              value={cvc}
              onChange={(event) => setCvc(event.target.value)}
            />
          )}
        </FormField>
      </div>
    </fieldset>
  );
}

type StripeState = { stripe: StripeClient; elements: StripeElements };

/** Which kind of Elements session the checkout needs: a charge, a subscription, or only a saved card. */
export function stripeElementsMode(checkout: {
  is_payment_required: boolean;
  product: { is_recurring: boolean };
}): 'payment' | 'subscription' | 'setup' {
  if (!checkout.is_payment_required) return 'setup';
  return checkout.product.is_recurring ? 'subscription' : 'payment';
}

/**
 * Stripe's Payment Element (live mode). Card details stay inside Stripe's iframe; what comes out is
 * a ConfirmationToken id. Cannot run in tests: it needs js.stripe.com.
 */
export function StripeCardForm(props: {
  ref: Ref<PaymentFormHandle>;
  publishableKey: string;
  mode: 'payment' | 'subscription' | 'setup';
  amount: number;
  currency: string;
  /** The server's refusal of the card (a decline), shown under the form. */
  error?: string | null;
}) {
  const { publishableKey, mode, amount, currency } = props;
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<StripeState | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let element: StripePaymentElement | null = null;
    loadStripe(publishableKey)
      .then((stripe) => {
        if (cancelled || !container.current) return;
        const elements = stripe.elements({
          mode,
          currency,
          paymentMethodCreation: 'manual',
          // As the server's PaymentIntents (domain/payments/stripe.ts): cards and wallets only.
          paymentMethodTypes: ['card'],
          ...(mode === 'setup' ? {} : { amount }),
        });
        element = elements.create('payment', { layout: 'tabs' });
        element.mount(container.current);
        setState({ stripe, elements });
      })
      .catch((error: Error) => setLoadError(error.message));
    return () => {
      cancelled = true;
      element?.destroy();
    };
    // The Element is created once per key and mode; amount changes go through `update` below.
  }, [publishableKey, mode]);

  useEffect(() => {
    if (state && mode !== 'setup') state.elements.update({ amount, currency });
  }, [state, mode, amount, currency]);

  useImperativeHandle(
    props.ref,
    () => ({
      validate: () => state !== null,
      async tokenize(billing) {
        if (!state) throw new Error(loadError ?? 'The payment form is still loading.');
        const submitted = await state.elements.submit();
        if (submitted.error) throw new Error(submitted.error.message ?? 'Check your card details.');
        const { confirmationToken, error } = await state.stripe.createConfirmationToken({
          elements: state.elements,
          params: { payment_method_data: { billing_details: billing } },
        });
        if (error || !confirmationToken) throw new Error(error?.message ?? 'Your card could not be used.');
        return confirmationToken.id;
      },
    }),
    [state, loadError],
  );

  return (
    <fieldset className="card-form">
      <legend>Payment</legend>
      <div ref={container} />
      {props.error && !loadError ? <p className="field-error">{props.error}</p> : null}
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}
    </fieldset>
  );
}
