// What Stripe's test mode does with each test PaymentMethod, as the sandbox processor reproduces it.
import { testCardFor } from './test-cards.js';
import type { PaymentMethodSummary } from './processor.js';
import type { PaymentTrigger } from './schemas.js';

/** Stripe's buyer-facing message for each decline code its test cards produce. */
export const DECLINE_MESSAGES = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  processing_error: 'An error occurred while processing your card. Try again in a little bit.',
  fraudulent: 'Your card was declined.',
  card_velocity_exceeded:
    'Your card was declined for making repeated attempts too frequently or exceeding its amount limit.',
  // Stripe's code when a payment made without the buyer (a renewal) needs them to authenticate.
  authentication_required: 'Your card was declined. This transaction requires authentication.',
  // Stripe's code and message when the buyer fails (or cancels) 3-D Secure authentication.
  payment_intent_authentication_failure:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

export type DeclineCode = keyof typeof DECLINE_MESSAGES;

type SettledOutcome =
  | { status: 'succeeded'; paymentMethod: PaymentMethodSummary; refundsFail: boolean; disputed: boolean }
  | { status: 'failed'; declineCode: DeclineCode; message: string };

export type SandboxPaymentOutcome =
  | SettledOutcome
  /** The card asks for 3-D Secure; once the buyer authenticates, the payment ends as `authenticated`. */
  | { status: 'requires_action'; authenticated: SettledOutcome };

const DECLINING_PAYMENT_METHODS: Record<string, DeclineCode> = {
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_visa_chargeDeclined: 'generic_decline',
  pm_card_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_visa_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclinedLostCard: 'lost_card',
  pm_card_visa_chargeDeclinedLostCard: 'lost_card',
  pm_card_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_visa_chargeDeclinedStolenCard: 'stolen_card',
  pm_card_chargeDeclinedExpiredCard: 'expired_card',
  pm_card_chargeDeclinedIncorrectCvc: 'incorrect_cvc',
  pm_card_chargeDeclinedProcessingError: 'processing_error',
  pm_card_chargeDeclinedFraudulent: 'fraudulent',
  pm_card_visa_chargeDeclinedVelocityLimitExceeded: 'card_velocity_exceeded',
};

/**
 * Cards that ask for 3-D Secure on every payment, and the card (or decline) the payment ends with
 * once authenticated: Stripe's `pm_card_authenticationRequired…` family.
 */
const AUTHENTICATING_PAYMENT_METHODS: Record<string, { card: string } | { declineCode: DeclineCode }> = {
  pm_card_authenticationRequired: { card: 'pm_card_authenticationRequired' },
  pm_card_threeDSecure2Required: { card: 'pm_card_threeDSecure2Required' },
  pm_card_authenticationRequiredOnSetup: { card: 'pm_card_authenticationRequiredOnSetup' },
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: { declineCode: 'insufficient_funds' },
};

/** Test cards whose payments succeed but whose refunds fail after a while (Stripe's `pm_card_refundFail`). */
const REFUND_FAILING_PAYMENT_METHODS = new Set(['pm_card_refundFail']);

/** Test cards whose payments succeed and are then disputed as fraudulent (Stripe's `pm_card_createDispute`). */
const DISPUTED_PAYMENT_METHODS = new Set(['pm_card_createDispute']);

/**
 * How long after its payment the sandbox opens the dispute of a disputed test card: Stripe's opens
 * "shortly after" the charge; a few seconds lets a seller watch the order change.
 */
export const SANDBOX_DISPUTE_DELAY_MS = 5_000;

/** The reason Stripe gives the dispute of its `pm_card_createDispute` card. */
export const SANDBOX_DISPUTE_REASON = 'fraudulent';

/**
 * The outcome of confirming a payment with a test PaymentMethod id; null for an id Stripe's test
 * mode does not know (Stripe answers `resource_missing` and creates no payment).
 */
export function sandboxPaymentOutcome(paymentMethodId: string): SandboxPaymentOutcome | null {
  const authenticating = AUTHENTICATING_PAYMENT_METHODS[paymentMethodId];
  if (authenticating) {
    const authenticated =
      'declineCode' in authenticating
        ? declined(authenticating.declineCode)
        : settledWithCard(authenticating.card);
    return authenticated ? { status: 'requires_action', authenticated } : null;
  }
  const declineCode = DECLINING_PAYMENT_METHODS[paymentMethodId];
  if (declineCode) return declined(declineCode);
  return settledWithCard(paymentMethodId);
}

const declined = (declineCode: DeclineCode): SettledOutcome => ({
  status: 'failed',
  declineCode,
  message: DECLINE_MESSAGES[declineCode],
});

function settledWithCard(paymentMethodId: string): SettledOutcome | null {
  const card = testCardFor(paymentMethodId);
  if (!card) return null;
  return {
    status: 'succeeded',
    paymentMethod: { brand: card.brand, last4: card.number.slice(-4) },
    refundsFail: REFUND_FAILING_PAYMENT_METHODS.has(paymentMethodId),
    disputed: DISPUTED_PAYMENT_METHODS.has(paymentMethodId),
  };
}

/**
 * Cards whose later charges without the buyer are declined. Stripe's `pm_card_chargeCustomerFail`
 * declines every charge once attached; the sandbox lets its first (on-session) payment succeed so
 * that a renewal failing after a good start (dunning) can be tried from the hosted checkout.
 */
const OFF_SESSION_DECLINING_PAYMENT_METHODS = new Set(['pm_card_chargeCustomerFail']);

/** Cards that ask for authentication on every payment, including those made without the buyer. */
const ALWAYS_AUTHENTICATING_PAYMENT_METHODS = new Set([
  'pm_card_authenticationRequired',
  'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
  'pm_card_threeDSecure2Required',
]);

/**
 * The outcome of charging a saved test PaymentMethod without the buyer (a renewal). A payment that
 * would need 3-D Secure cannot ask anyone, so it fails as Stripe's does (`authentication_required`);
 * a card set up with authentication once (`…OnSetup`, Stripe's 3155) pays without asking again.
 */
export function sandboxOffSessionOutcome(paymentMethodId: string): SettledOutcome | null {
  if (OFF_SESSION_DECLINING_PAYMENT_METHODS.has(paymentMethodId)) return declined('generic_decline');
  if (ALWAYS_AUTHENTICATING_PAYMENT_METHODS.has(paymentMethodId)) {
    return declined('authentication_required');
  }
  const outcome = sandboxPaymentOutcome(paymentMethodId);
  if (!outcome) return null;
  return outcome.status === 'requires_action' ? outcome.authenticated : outcome;
}

/** Stripe's `failure_reason` the sandbox gives the refunds of a `pm_card_refundFail` payment. */
export const SANDBOX_REFUND_FAILURE_REASON = 'declined';

/**
 * Stripe's test cards have no expiry of their own; the sandbox gives a saved one the expiry a card
 * issued that month would have, so two saved cards of one brand can still be told apart.
 */
export function sandboxCardExpiry(savedAt: Date): { month: number; year: number } {
  return { month: savedAt.getUTCMonth() + 1, year: savedAt.getUTCFullYear() + 4 };
}

/**
 * What retrying a failed processor request can achieve (docs/payments.md, "Retry contract"):
 * - `permanent`: the processor refused the request itself (parameters it rejects, a resource it
 *   does not have, an idempotency key first used with other parameters); it would refuse it again.
 * - `transient`: it could not answer (network, rate limit, an outage on its side); a later try may.
 * - `configuration`: it refused the deployment's credentials or account (an invalid or expired API
 *   key, a permission the key lacks, an account not activated); a try succeeds once the seller or
 *   the operator fixes the setup, so it is retried, and reported meanwhile.
 */
export type ProcessorFailureClass = 'permanent' | 'transient' | 'configuration';

/**
 * The Temporal failure `type` each class is raised as (activities/failures.ts), so a workflow reads
 * the class from the failure and its activity options name them in `nonRetryableErrorTypes`.
 */
export const PROCESSOR_FAILURE_TYPES = {
  permanent: 'ProcessorRequestRefused',
  transient: 'ProcessorUnavailable',
  configuration: 'ProcessorMisconfigured',
} as const satisfies Record<ProcessorFailureClass, string>;

/** An entity whose workflow calls the processor, through which its organization is found. */
export type ProcessorEntity = { kind: 'checkout' | 'refund' | 'subscription'; id: string };

/** The key a try of an order charged without its customer is recorded under (renewals, dunning). */
export const orderChargeTryKey = (orderId: string, attempt: number) => `order:${orderId}:attempt:${attempt}`;

/**
 * A payment's trigger, read from the key its try was recorded under: a checkout's try is the
 * purchase, a renewal order's first try the cycle and its later ones dunning, a payment the
 * customer makes in the portal their own retry, a seller's finalize of a draft order a purchase.
 * (A new card during dunning is tried as the schedule's next try, so it reads as dunning.)
 */
export function paymentTriggerOf(requestKey: string): PaymentTrigger | null {
  if (requestKey.startsWith('checkout:')) return 'purchase';
  if (/^order:[^:]+:finalize:\d+$/.test(requestKey)) return 'purchase';
  if (requestKey.startsWith('order-customer-payment:')) return 'retry_customer';
  const renewalTry = /^order:[^:]+:attempt:(\d+)$/.exec(requestKey);
  if (renewalTry) return renewalTry[1] === '1' ? 'subscription_cycle' : 'retry_dunning';
  return null;
}
