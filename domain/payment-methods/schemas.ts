import { z } from 'zod';
import { textSchema } from '../platform/schemas.js';

// A customer's saved payment methods as the portal shows them (SDK `PaymentMethodCard` and
// `PaymentMethodGeneric`): `id` is ours, never the processor's.

export const paymentMethodCardSchema = z.object({
  id: z.uuid(),
  type: z.literal('card'),
  created_at: z.iso.datetime({ offset: true }),
  default: z.boolean(),
  card: z.object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int(),
    wallet: z.string().nullable(),
  }),
});

/** A method whose details were never kept (cards saved before expiries were): listed by type only. */
export const paymentMethodGenericSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  default: z.boolean(),
});

export const paymentMethodSchema = z.union([paymentMethodCardSchema, paymentMethodGenericSchema]);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

// The same cards as the seller's API lists them (`GET /v1/customers/{id}/payment-methods`, Polar's
// `CustomerPaymentMethodCard` and `CustomerPaymentMethodGeneric`). `processor` is always `stripe`,
// as on checkouts: the sandbox stands in for Stripe's test mode, and Polar's enum has no other.

const customerPaymentMethodCommon = {
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  processor: z.literal('stripe'),
  customer_id: z.uuid(),
  is_default: z.boolean(),
};

export const customerPaymentMethodCardSchema = z.object({
  ...customerPaymentMethodCommon,
  type: z.literal('card'),
  method_metadata: z.object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int(),
    wallet: z.string().nullable(),
  }),
});

export const customerPaymentMethodGenericSchema = z.object({
  ...customerPaymentMethodCommon,
  type: z.string(),
});

export const customerPaymentMethodSchema = z.union([
  customerPaymentMethodCardSchema,
  customerPaymentMethodGenericSchema,
]);
export type CustomerPaymentMethod = z.infer<typeof customerPaymentMethodSchema>;

export const paymentMethodCreateSchema = z.strictObject({
  confirmation_token_id: textSchema({ min: 1, max: 255 }),
  set_default: z.boolean(),
  return_url: textSchema({ max: 2048 }).pipe(z.url()),
});
export type PaymentMethodCreate = z.infer<typeof paymentMethodCreateSchema>;

/** After the bank's page: the setup that asked for it, saved now that the buyer confirmed it. */
export const paymentMethodConfirmSchema = z.strictObject({
  setup_intent_id: textSchema({ min: 1, max: 255 }).pipe(
    z.string().regex(/^seti_[A-Za-z0-9_]+$/, 'Not a card setup id (seti_…).'),
  ),
  set_default: z.boolean(),
});
export type PaymentMethodConfirm = z.infer<typeof paymentMethodConfirmSchema>;

/**
 * What saving a card answers (0.48.1's `CustomerPaymentMethodCreateResponse`): the card saved, or
 * the bank's step to run first. A saved card also carries the portal's own card fields at the top
 * level, as @polar-sh/sdk 0.33.2 reads the answer as the card itself.
 */
export const paymentMethodCreateResponseSchema = z.union([
  paymentMethodCardSchema.extend({
    status: z.literal('succeeded'),
    payment_method: customerPaymentMethodSchema,
  }),
  paymentMethodGenericSchema.extend({
    status: z.literal('succeeded'),
    payment_method: customerPaymentMethodSchema,
  }),
  z.object({ status: z.literal('requires_action'), client_secret: z.string() }),
]);
export type PaymentMethodCreateResponse = z.infer<typeof paymentMethodCreateResponseSchema>;

/** Our extension: makes a saved card the one the customer's plans renew on. */
export const paymentMethodUpdateSchema = z.strictObject({
  default: z.literal(true, {
    message: 'Only `true` is accepted: choose another card to replace the default.',
  }),
});

export const paymentMethodParamsSchema = z.object({ id: z.uuid({ message: 'Not a payment method id.' }) });
