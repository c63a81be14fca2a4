// The Stripe processor: Stripe's API through its SDK. Every request carries the caller's idempotency
// key (derived from workflow and step), so a retried activity never charges or refunds twice.
// Outcomes that settle later reach us as Stripe's webhooks (api/integrations/stripe.ts).
import Stripe from 'stripe';
import { PaymentProcessorError } from '../../domain/payments/errors.js';
import type { ProcessorFailureClass } from '../../domain/payments/rules.js';
import type {
  OffSessionPaymentResult,
  PaymentInput,
  PaymentProcessor,
  PaymentResult,
  RefundResult,
  SetupInput,
} from '../../domain/payments/processor.js';
import {
  disputeStatusFromStripe,
  isSetupIntentId,
  paymentIntentResult,
  refundObjectResult,
  savedPaymentMethodOf,
  savedPaymentMethodOfSetup,
  setupIntentResult,
} from './mapping.js';

/**
 * A Stripe client; `apiBase` (scheme://host[:port]) points it elsewhere than api.stripe.com, at
 * stripe-mock in tests or a self-hosted proxy. The SDK's pinned API version is the one used.
 */
export function createStripeClient({ secretKey, apiBase }: { secretKey: string; apiBase?: string }): Stripe {
  const base = apiBase ? new URL(apiBase) : null;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    // Idempotency keys make the SDK's own retries of network failures safe; Temporal retries the rest.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Tollgate' },
    ...(base
      ? { host: base.hostname, port: Number(base.port || (protocol === 'http' ? 80 : 443)), protocol }
      : {}),
  });
}

/**
 * Stripe's codes for a request refused because of the account or its key rather than the request:
 * retrying succeeds once the setup is fixed (docs/payments.md, "Retry contract").
 */
const CONFIGURATION_CODES = new Set([
  'account_invalid',
  'account_closed',
  'api_key_expired',
  'platform_api_key_expired',
  'platform_account_required',
  'secret_key_required',
  'testmode_charges_only',
  'livemode_mismatch',
]);

/** Which class of the retry contract a Stripe error is in. */
export function stripeFailureClass(error: Stripe.errors.StripeError): ProcessorFailureClass {
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError ||
    // Unauthorized and Forbidden: the key, whatever class the SDK gave the error.
    error.statusCode === 401 ||
    error.statusCode === 403 ||
    CONFIGURATION_CODES.has(error.code ?? '')
  ) {
    return 'configuration';
  }
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    // Another request with the same key is still running: retrying later replays its answer.
    error.code === 'idempotency_key_in_use' ||
    error.code === 'lock_timeout' ||
    error.code === 'rate_limit' ||
    (error.statusCode ?? 0) >= 500
  ) {
    return 'transient';
  }
  // StripeIdempotencyError (a key reused with other parameters), StripeInvalidRequestError
  // (`resource_missing`, refused parameters) and any other refusal would be refused again.
  return 'permanent';
}

/** Stripe's errors as the processor's, classified; anything else passes through. */
export function toPaymentProcessorError(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  return new PaymentProcessorError(error.code ?? error.type, error.message, stripeFailureClass(error));
}

/** A buyer's card declined, or a PaymentMethod/ConfirmationToken Stripe does not accept: a failed payment. */
function failedPayment(error: unknown): PaymentResult | null {
  if (error instanceof Stripe.errors.StripeCardError) {
    return {
      status: 'failed',
      paymentId: error.payment_intent?.id ?? null,
      declineCode: error.decline_code ?? error.code ?? 'card_declined',
      message: error.message,
      paymentMethod: error.payment_method?.card
        ? { brand: error.payment_method.card.brand, last4: error.payment_method.card.last4 }
        : null,
    };
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.param === 'payment_method' || error.param === 'confirmation_token')
  ) {
    return {
      status: 'failed',
      paymentId: error.payment_intent?.id ?? null,
      declineCode: error.code ?? 'invalid_request',
      message: error.message,
    };
  }
  return null;
}

export function createStripeProcessor({ stripe }: { stripe: Stripe }): PaymentProcessor {
  /** A card setup the buyer never authenticated; where it ended when it ended first. */
  async function cancelSetup(setupId: string, idempotencyKey: string): Promise<PaymentResult> {
    try {
      return setupIntentResult(
        await stripe.setupIntents.cancel(
          setupId,
          { cancellation_reason: 'abandoned', expand: ['payment_method'] },
          { idempotencyKey },
        ),
      );
    } catch (error) {
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'setup_intent_unexpected_state'
      ) {
        try {
          return setupIntentResult(
            await stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] }),
          );
        } catch (retrieveError) {
          throw toPaymentProcessorError(retrieveError);
        }
      }
      throw toPaymentProcessorError(error);
    }
  }

  return {
    name: 'stripe',

    async ensureCustomer(input) {
      try {
        const customer = await stripe.customers.create(
          { email: input.email, name: input.name ?? undefined, metadata: { customer_id: input.customerId } },
          { idempotencyKey: input.idempotencyKey },
        );
        return { processorCustomerId: customer.id };
      } catch (error) {
        throw toPaymentProcessorError(error);
      }
    },

    async pay(input: PaymentInput): Promise<PaymentResult> {
      // Elements on the hosted page hands over a ConfirmationToken; test mode also takes a test
      // PaymentMethod id (`pm_card_visa`) in its place.
      const paymentMethod = input.confirmationTokenId.startsWith('ctoken_')
        ? { confirmation_token: input.confirmationTokenId }
        : { payment_method: input.confirmationTokenId };
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency.toLowerCase(),
            customer: input.processorCustomerId,
            description: input.description,
            metadata: input.metadata,
            ...paymentMethod,
            confirm: true,
            // Cards (wallets included) only: the hosted page completes 3-D Secure in place
            // (`handleNextAction`), so every `requires_action` is an authentication the workflow
            // may cancel after a while. Vouchers, bank transfers or redirects would be payments
            // that wait days or leave the page, which the checkout does not handle yet.
            payment_method_types: ['card'],
            ...(input.saveForOffSession ? { setup_future_usage: 'off_session' as const } : {}),
            expand: ['payment_method'],
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return paymentIntentResult(intent);
      } catch (error) {
        const failed = failedPayment(error);
        if (failed) return failed;
        throw toPaymentProcessorError(error);
      }
    },

    async setUpOffSession(input: SetupInput): Promise<PaymentResult> {
      const paymentMethod = input.confirmationTokenId.startsWith('ctoken_')
        ? { confirmation_token: input.confirmationTokenId }
        : { payment_method: input.confirmationTokenId };
      try {
        const intent = await stripe.setupIntents.create(
          {
            customer: input.processorCustomerId,
            description: input.description,
            metadata: input.metadata,
            ...paymentMethod,
            confirm: true,
            usage: 'off_session',
            payment_method_types: ['card'],
            expand: ['payment_method'],
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return setupIntentResult(intent);
      } catch (error) {
        const failed = failedPayment(error);
        if (failed) return failed;
        throw toPaymentProcessorError(error);
      }
    },

    async cancelPayment({ paymentId, idempotencyKey }): Promise<PaymentResult> {
      if (isSetupIntentId(paymentId)) return cancelSetup(paymentId, idempotencyKey);
      try {
        const intent = await stripe.paymentIntents.cancel(
          paymentId,
          { cancellation_reason: 'abandoned', expand: ['payment_method'] },
          { idempotencyKey },
        );
        return paymentIntentResult(intent);
      } catch (error) {
        // Stripe refuses to cancel a payment that ended meanwhile (the buyer authenticated, or it
        // failed): where it ended is the answer.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'payment_intent_unexpected_state'
        ) {
          try {
            return paymentIntentResult(
              await stripe.paymentIntents.retrieve(paymentId, { expand: ['payment_method'] }),
            );
          } catch (retrieveError) {
            throw toPaymentProcessorError(retrieveError);
          }
        }
        throw toPaymentProcessorError(error);
      }
    },

    async savedPaymentMethod({ paymentId }) {
      try {
        if (isSetupIntentId(paymentId)) {
          return savedPaymentMethodOfSetup(
            await stripe.setupIntents.retrieve(paymentId, { expand: ['payment_method'] }),
          );
        }
        return savedPaymentMethodOf(
          await stripe.paymentIntents.retrieve(paymentId, { expand: ['payment_method'] }),
        );
      } catch (error) {
        throw toPaymentProcessorError(error);
      }
    },

    async chargeOffSession(input): Promise<OffSessionPaymentResult> {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: input.currency.toLowerCase(),
            customer: input.processorCustomerId,
            payment_method: input.paymentMethodId,
            description: input.description,
            metadata: input.metadata,
            confirm: true,
            // Nobody is there to authenticate: Stripe declines with `authentication_required`
            // instead of waiting for an action.
            off_session: true,
            payment_method_types: ['card'],
            expand: ['payment_method'],
          },
          { idempotencyKey: input.idempotencyKey },
        );
        const result = paymentIntentResult(intent);
        if (result.status === 'requires_action') {
          return {
            status: 'failed',
            paymentId: result.paymentId,
            declineCode: 'authentication_required',
            message: 'Your card was declined. This transaction requires authentication.',
          };
        }
        return result;
      } catch (error) {
        const failed = failedPayment(error);
        if (failed && failed.status === 'failed') return failed;
        throw toPaymentProcessorError(error);
      }
    },

    async refund(input): Promise<RefundResult> {
      // A card setup charged nothing: there is nothing to give back.
      if (isSetupIntentId(input.paymentId)) {
        return { status: 'failed', processorRefundId: null, reason: 'nothing_charged' };
      }
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentId,
            ...(input.amount === null ? {} : { amount: input.amount }),
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey },
        );
        return refundObjectResult(refund);
      } catch (error) {
        // Stripe refusing a refund (already refunded, more than is left, unknown payment) is a
        // failed refund: nothing was created, and asking again would be refused again.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return { status: 'failed', processorRefundId: null, reason: error.code ?? 'invalid_request' };
        }
        throw toPaymentProcessorError(error);
      }
    },

    async detachPaymentMethod({ paymentMethodId }) {
      try {
        await stripe.paymentMethods.detach(paymentMethodId);
      } catch (error) {
        // Already detached (or deleted at Stripe): what was asked holds.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
          return;
        throw toPaymentProcessorError(error);
      }
    },

    async closeDispute({ processorDisputeId }) {
      try {
        return { status: disputeStatusFromStripe((await stripe.disputes.close(processorDisputeId)).status) };
      } catch (error) {
        // Stripe refuses to close a dispute that closed already: it ended as it ended.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code !== 'resource_missing') {
          const dispute = await stripe.disputes.retrieve(processorDisputeId).catch((failure: unknown) => {
            throw toPaymentProcessorError(failure);
          });
          return { status: disputeStatusFromStripe(dispute.status) };
        }
        throw toPaymentProcessorError(error);
      }
    },
  };
}
