// The seam between checkouts/refunds and whoever moves the money (DESIGN.md, "Payment processing").
// Both implementations (Stripe, sandbox) answer synchronously where they can and also report every
// outcome as a `ProcessorEvent`, so a payment that settles later (3-D Secure, bank delays) reaches
// the workflows through the same path as Stripe's webhooks.

export type ProcessorName = 'stripe' | 'sandbox';

export type ProcessorCustomerInput = {
  /** Derived from the workflow and step, so a retried activity never creates a second customer. */
  idempotencyKey: string;
  email: string;
  name: string | null;
  /** Our customer id, kept in the processor's metadata. */
  customerId: string;
};

export type PaymentInput = {
  idempotencyKey: string;
  /** Minor units of `currency`; the processor never sees an amount the server did not compute. */
  amount: number;
  currency: string;
  /** A Stripe ConfirmationToken (`ctoken_…`) from Elements, or a test PaymentMethod (`pm_card_visa`). */
  confirmationTokenId: string;
  processorCustomerId: string;
  /** `checkout_id` and `organization_id` at least: they route the processor's events back to us. */
  metadata: Record<string, string>;
  description: string;
  /**
   * Keep the payment method on the processor's customer for later charges made without the buyer
   * (a subscription's renewals): Stripe's `setup_future_usage: off_session`.
   */
  saveForOffSession: boolean;
};

/**
 * A card saved for later without charging it now (Stripe's SetupIntent): a plan whose first period
 * costs nothing (fully discounted) still renews on a card. Its result is a `PaymentResult` whose
 * `paymentId` is the setup's id; a decline or an authentication goes as for a payment.
 */
export type SetupInput = {
  idempotencyKey: string;
  confirmationTokenId: string;
  processorCustomerId: string;
  /** The currency the card will be charged in (Elements' setup mode asks for it). */
  currency: string;
  /** `checkout_id` and `organization_id`: they route the processor's events back to us. */
  metadata: Record<string, string>;
  description: string;
};

/** A payment method kept on a processor customer, which renewals are charged to. */
export type SavedPaymentMethod = {
  paymentMethodId: string;
  processorCustomerId: string;
  summary: PaymentMethodSummary | null;
  /** A card's expiry, which the buyer needs to tell two cards apart; null when not a card. */
  expiry: { month: number; year: number } | null;
  /**
   * The card's fingerprint (Stripe's `card.fingerprint`: the same card number gives the same one),
   * which trial abuse prevention recognises a card by; null or absent when unknown.
   */
  fingerprint?: string | null;
};

/**
 * A charge made without the buyer (a renewal) to a saved payment method. It can never ask for
 * authentication: a card that wants it fails with `authentication_required`, and the order then
 * waits for the buyer to pay it themselves (`pay` with `CUSTOMER_CONFIRMATION_METADATA`).
 */
export type OffSessionPaymentInput = {
  idempotencyKey: string;
  amount: number;
  currency: string;
  processorCustomerId: string;
  paymentMethodId: string;
  /** `subscription_id` and `organization_id`: they route the processor's events back to us. */
  metadata: Record<string, string>;
  description: string;
};

export type OffSessionPaymentResult = Exclude<PaymentResult, { status: 'requires_action' }>;

export type PaymentResult =
  | { status: 'succeeded'; paymentId: string; paymentMethod: PaymentMethodSummary | null }
  | { status: 'processing'; paymentId: string }
  /**
   * The card asks the buyer to authenticate (3-D Secure). The hosted page completes it with the
   * processor (Stripe.js `handleNextAction`, or the sandbox's test page) using `clientSecret`; the
   * outcome arrives as a processor event.
   */
  | { status: 'requires_action'; paymentId: string; clientSecret: string }
  | {
      status: 'failed';
      paymentId: string | null;
      /** Stripe's decline code (`generic_decline`, `insufficient_funds`, …) or error code. */
      declineCode: string;
      /** A message the buyer can read. */
      message: string;
      /** The card that was declined, when the processor describes it. */
      paymentMethod?: PaymentMethodSummary | null;
    };

export type PaymentMethodSummary = { brand: string; last4: string };

/** Polar's DisputeStatus; the adapters map their processor's statuses onto it. */
export const DISPUTE_STATUSES = [
  'prevented',
  'early_warning',
  'needs_response',
  'under_review',
  'lost',
  'won',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export type RefundInput = {
  idempotencyKey: string;
  paymentId: string;
  /** Minor units; null refunds whatever of the payment is not refunded yet. */
  amount: number | null;
  currency: string;
  /** `refund_id` and `order_id` for a seller's refund (its events route back by them). */
  metadata: Record<string, string>;
};

export type RefundResult =
  | { status: 'succeeded' | 'pending'; processorRefundId: string }
  | { status: 'failed'; processorRefundId: string | null; reason: string };

export type PaymentProcessor = {
  readonly name: ProcessorName;
  ensureCustomer(input: ProcessorCustomerInput): Promise<{ processorCustomerId: string }>;
  pay(input: PaymentInput): Promise<PaymentResult>;
  setUpOffSession(input: SetupInput): Promise<PaymentResult>;
  /**
   * Stops a payment still waiting for the buyer (authentication never completed). Answers where
   * the payment ended: `failed` once canceled, or `succeeded` when the buyer finished first.
   */
  cancelPayment(input: { paymentId: string; idempotencyKey: string }): Promise<PaymentResult>;
  refund(input: RefundInput): Promise<RefundResult>;
  /** The payment method a succeeded payment (`saveForOffSession`) or setup saved; null when none. */
  savedPaymentMethod(input: { paymentId: string }): Promise<SavedPaymentMethod | null>;
  chargeOffSession(input: OffSessionPaymentInput): Promise<OffSessionPaymentResult>;
  /** Takes a saved payment method off its processor customer: nothing can charge it any more. */
  detachPaymentMethod(input: { paymentMethodId: string }): Promise<void>;
  /**
   * Concedes a dispute (Stripe's `disputes.close`): the processor settles it as lost. Closing a
   * dispute already closed answers where it ended.
   */
  closeDispute(input: { processorDisputeId: string }): Promise<{ status: DisputeStatus }>;
};

/** What a processor reports happened, after signature checks; `id` is the processor's event id. */
export type ProcessorEvent =
  | {
      id: string;
      type: 'payment.succeeded';
      occurredAt: string;
      checkoutId: string;
      paymentId: string;
      paymentMethod: PaymentMethodSummary | null;
    }
  | {
      id: string;
      type: 'payment.failed';
      occurredAt: string;
      checkoutId: string;
      paymentId: string | null;
      declineCode: string;
      message: string;
    }
  /**
   * A payment the customer made for an order of their subscription in the portal (its metadata
   * names the order, the subscription and `payment_trigger: customer_confirmation`).
   */
  | {
      id: string;
      type: 'order_payment.succeeded';
      occurredAt: string;
      orderId: string;
      subscriptionId: string;
      paymentId: string;
      paymentMethod: PaymentMethodSummary | null;
    }
  | {
      id: string;
      type: 'order_payment.failed';
      occurredAt: string;
      orderId: string;
      subscriptionId: string;
      paymentId: string | null;
      declineCode: string;
      message: string;
    }
  | {
      id: string;
      type: 'refund.succeeded';
      occurredAt: string;
      refundId: string;
      processorRefundId: string;
    }
  | {
      id: string;
      type: 'refund.failed';
      occurredAt: string;
      refundId: string;
      processorRefundId: string | null;
      reason: string;
    }
  /**
   * A dispute opened or moved (Stripe's `charge.dispute.*`, the sandbox's disputed card): the whole
   * dispute as the processor has it now. `occurredAt` may lie ahead for the sandbox, whose disputed
   * card's dispute opens a few seconds after its payment.
   */
  | {
      id: string;
      type: 'dispute.updated';
      occurredAt: string;
      processorDisputeId: string;
      /** The disputed payment (PaymentIntent) id, as `payments.processor_payment_id` has it. */
      processorPaymentId: string;
      status: DisputeStatus;
      /** Minor units of `currency`: what the buyer's bank took back, tax included. */
      amount: number;
      currency: string;
      reason: string | null;
      /** The deadline for the seller's evidence; null when the processor asks for none. */
      evidenceDueBy: string | null;
    };

/**
 * The metadata that marks a payment the customer made themselves for an order (the portal's
 * confirm-payment): its outcome is reported as an `order_payment.*` event. Renewals charged
 * without the buyer answer at once and are not reported.
 */
export const CUSTOMER_CONFIRMATION_METADATA = { payment_trigger: 'customer_confirmation' } as const;

/**
 * Where a payment's metadata routes its outcome: the checkout it pays, or the order of a
 * subscription its customer paid in the portal; null for anything else (a renewal's charge).
 */
export function paymentRouteOf(
  metadata: Record<string, string> | null | undefined,
): { checkoutId: string } | { orderId: string; subscriptionId: string } | null {
  if (!metadata) return null;
  if (metadata.checkout_id) return { checkoutId: metadata.checkout_id };
  if (
    metadata.order_id &&
    metadata.subscription_id &&
    metadata.payment_trigger === CUSTOMER_CONFIRMATION_METADATA.payment_trigger
  ) {
    return { orderId: metadata.order_id, subscriptionId: metadata.subscription_id };
  }
  return null;
}

/** Hands a new (not yet seen) processor event to the workflow it concerns. */
export type ProcessorEventSink = {
  deliver(event: ProcessorEvent): Promise<void>;
};
