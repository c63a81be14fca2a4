import { z } from 'zod';
import {
  oneOrManyUuids,
  pageQuerySchema,
  queryListSchema,
  sortingSchema,
  textSchema,
} from '../platform/schemas.js';
import { DISPUTE_STATUSES, type ProcessorEvent } from './processor.js';

const paymentMethodSummarySchema = z.object({ brand: z.string(), last4: z.string() });
const occurredAt = z.iso.datetime({ offset: true });

/**
 * A `ProcessorEvent` as stored in `processor_events.payload` and read back for redelivery; also
 * what a workflow may parse a delivered event with.
 */
export const processorEventSchema = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1),
    type: z.literal('payment.succeeded'),
    occurredAt,
    checkoutId: z.string().min(1),
    paymentId: z.string().min(1),
    paymentMethod: paymentMethodSummarySchema.nullable(),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('payment.failed'),
    occurredAt,
    checkoutId: z.string().min(1),
    paymentId: z.string().min(1).nullable(),
    declineCode: z.string().min(1),
    message: z.string(),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('order_payment.succeeded'),
    occurredAt,
    orderId: z.string().min(1),
    subscriptionId: z.string().min(1),
    paymentId: z.string().min(1),
    paymentMethod: paymentMethodSummarySchema.nullable(),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('order_payment.failed'),
    occurredAt,
    orderId: z.string().min(1),
    subscriptionId: z.string().min(1),
    paymentId: z.string().min(1).nullable(),
    declineCode: z.string().min(1),
    message: z.string(),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('refund.succeeded'),
    occurredAt,
    refundId: z.string().min(1),
    processorRefundId: z.string().min(1),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('refund.failed'),
    occurredAt,
    refundId: z.string().min(1),
    processorRefundId: z.string().min(1).nullable(),
    reason: z.string().min(1),
  }),
  z.object({
    id: z.string().min(1),
    type: z.literal('dispute.updated'),
    occurredAt,
    processorDisputeId: z.string().min(1),
    processorPaymentId: z.string().min(1),
    status: z.enum(DISPUTE_STATUSES),
    amount: z.number().int().nonnegative(),
    currency: z.string().min(1),
    reason: z.string().nullable(),
    evidenceDueBy: occurredAt.nullable(),
  }),
]) satisfies z.ZodType<ProcessorEvent>;

/**
 * The buyer's answer on the sandbox's 3-D Secure page. The client secret names its payment, as
 * Stripe's do (`pi_…_secret_…`).
 */
export const sandboxAuthenticationSchema = z
  .object({
    client_secret: z
      .string()
      .regex(/^(pi|seti)_sbx_[0-9a-f]{24}_secret_[0-9a-f]{32}$/, 'Not a sandbox payment client secret.'),
    outcome: z.enum(['complete', 'fail']),
  })
  .strict();

/** What the sandbox's 3-D Secure page learns: where the payment ended. */
export const sandboxAuthenticationResultSchema = z.object({
  status: z.enum(['succeeded', 'failed', 'requires_action']),
});

/**
 * What the sandbox's card form sends to make a ConfirmationToken, as Stripe.js does from a card
 * form: the test PaymentMethod its number stands for and the expiry the buyer typed. No card
 * number or CVC leaves the browser.
 */
export const sandboxConfirmationTokenCreateSchema = z.strictObject({
  payment_method: z.string().regex(/^pm_[A-Za-z0-9_]{1,100}$/, 'Not a test PaymentMethod id.'),
  card: z.strictObject({
    exp_month: z.number().int().min(1, 'A month from 1 to 12.').max(12, 'A month from 1 to 12.'),
    exp_year: z.number().int().min(2000, 'A four-digit year.').max(9999, 'A four-digit year.'),
  }),
});
export type SandboxConfirmationTokenCreate = z.infer<typeof sandboxConfirmationTokenCreateSchema>;

/** The token the confirmation then carries as `confirmation_token_id`. */
export const sandboxConfirmationTokenSchema = z.object({
  id: z.string().regex(/^ctoken_sbx_[0-9a-f]{24}$/),
  payment_method: z.string(),
  card: z.object({ exp_month: z.number().int(), exp_year: z.number().int() }),
});
export type SandboxConfirmationToken = z.infer<typeof sandboxConfirmationTokenSchema>;

/**
 * `GET /v1/organizations/{id}/processor-status` (our extension): a problem with the processor's
 * key or account that holds back the organization's payments, or null.
 */
export const processorStatusSchema = z.object({
  configuration_problem: z
    .object({
      processor: z.string(),
      /** The processor's code: `StripeAuthenticationError`, `testmode_charges_only`, … */
      code: z.string(),
      message: z.string(),
      since: occurredAt,
      last_seen_at: occurredAt,
    })
    .nullable(),
});
export type ProcessorStatus = z.infer<typeof processorStatusSchema>;

// ----- Polar's Payment (`@polar-sh/sdk@0.48.1` CardPayment | GenericPayment) ------------------

const datetime = z.iso.datetime({ offset: true });

export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** What made the try, in Polar's words. */
export const PAYMENT_TRIGGERS = [
  'purchase',
  'subscription_cycle',
  'retry_dunning',
  'retry_customer',
  'retry_payment_method_update',
  'retry_admin',
] as const;
export type PaymentTrigger = (typeof PAYMENT_TRIGGERS)[number];

const paymentFields = {
  created_at: datetime,
  modified_at: datetime.nullable(),
  id: z.uuid(),
  /** Polar's enum has `stripe` alone; the sandbox stands in for Stripe's test mode. */
  processor: z.literal('stripe'),
  status: paymentStatusSchema,
  amount: z.number().int(),
  currency: z.string(),
  trigger: z.enum(PAYMENT_TRIGGERS).nullable(),
  decline_reason: z.string().nullable(),
  decline_message: z.string().nullable(),
  organization_id: z.uuid(),
  checkout_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  /** Which processor was asked (`stripe` or `sandbox`) and its payment's id (null when refused). */
  processor_metadata: z.object({ processor: z.string(), payment_id: z.string().nullable() }),
};

export const cardPaymentSchema = z
  .object({
    ...paymentFields,
    method: z.literal('card'),
    method_metadata: paymentMethodSummarySchema,
  })
  .meta({ id: 'CardPayment' });

/** A try whose card the processor did not describe (a refused request, a bank that declined early). */
export const genericPaymentSchema = z
  .object({ ...paymentFields, method: z.string() })
  .meta({ id: 'GenericPayment' });

export const paymentSchema = z.union([cardPaymentSchema, genericPaymentSchema]);
export type Payment = z.infer<typeof paymentSchema>;

export const paymentSortFields = [
  'created_at',
  '-created_at',
  'status',
  '-status',
  'amount',
  '-amount',
  'method',
  '-method',
] as const;

export const paymentListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  checkout_id: oneOrManyUuids.optional(),
  order_id: oneOrManyUuids.optional(),
  customer_id: oneOrManyUuids.optional(),
  status: queryListSchema(paymentStatusSchema).optional(),
  // Compared as text only, but refused with control characters like every text the API takes.
  method: queryListSchema(textSchema({ max: 64 })).optional(),
  customer_email: queryListSchema(textSchema({ max: 320 })).optional(),
  sorting: sortingSchema(paymentSortFields),
});
export type PaymentListQuery = z.infer<typeof paymentListQuerySchema>;
