import { z } from 'zod';
import { attachedCustomFieldSchema } from '../../domain/custom-fields/schemas';
import { addressSchema } from '../../domain/customers/schemas';
import { productPriceSchema } from '../../domain/products/schemas';

// What the web app reads of checkouts: the fields of @polar-sh/sdk@0.33.2's CheckoutPublic and
// Checkout that the pages show (unknown keys are dropped).

const datetime = z.iso.datetime({ offset: true });

export const checkoutStatusSchema = z.enum(['open', 'expired', 'confirmed', 'succeeded', 'failed']);
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>;

export const checkoutProductSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  is_recurring: z.boolean(),
  recurring_interval: z.enum(['month', 'year']).nullable(),
  prices: z.array(productPriceSchema),
  benefits: z.array(z.object({ id: z.uuid(), description: z.string() })),
  medias: z.array(z.object({ id: z.uuid(), public_url: z.string() })),
});
export type CheckoutProduct = z.infer<typeof checkoutProductSchema>;

export const checkoutDiscountSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  code: z.string().nullable(),
  type: z.enum(['fixed', 'percentage']),
  duration: z.enum(['once', 'forever', 'repeating']),
  duration_in_months: z.number().int().optional(),
  basis_points: z.number().int().optional(),
  amount: z.number().int().optional(),
  currency: z.string().optional(),
});

/** Which billing address fields the form asks for, as the server decides them for the country. */
export const billingAddressFieldsSchema = z.object({
  country: z.boolean(),
  state: z.boolean(),
  city: z.boolean(),
  postal_code: z.boolean(),
  line1: z.boolean(),
  line2: z.boolean(),
});
export type BillingAddressFields = z.infer<typeof billingAddressFieldsSchema>;
export type AddressField = keyof BillingAddressFields;

export const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean()]).nullable();

export const checkoutPublicSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  status: checkoutStatusSchema,
  client_secret: z.string(),
  url: z.string(),
  expires_at: datetime,
  success_url: z.string(),
  embed_origin: z.string().nullable(),
  amount: z.number().int(),
  discount_amount: z.number().int(),
  net_amount: z.number().int(),
  tax_amount: z.number().int().nullable(),
  total_amount: z.number().int(),
  currency: z.string(),
  product_id: z.uuid(),
  product_price_id: z.uuid(),
  discount_id: z.uuid().nullable(),
  allow_discount_codes: z.boolean(),
  require_billing_address: z.boolean(),
  is_discount_applicable: z.boolean(),
  is_free_product_price: z.boolean(),
  is_payment_required: z.boolean(),
  is_payment_setup_required: z.boolean(),
  is_payment_form_required: z.boolean(),
  customer_name: z.string().nullable(),
  customer_email: z.string().nullable(),
  customer_billing_address: addressSchema.nullable(),
  payment_processor_metadata: z.record(z.string(), z.string()),
  custom_field_data: z.record(z.string(), customFieldValueSchema).optional(),
  products: z.array(checkoutProductSchema),
  product: checkoutProductSchema,
  product_price: productPriceSchema,
  discount: checkoutDiscountSchema.nullable(),
  organization: z.object({ id: z.uuid(), name: z.string(), avatar_url: z.string().nullable() }),
  attached_custom_fields: z.array(attachedCustomFieldSchema),
  customer_billing_address_fields: billingAddressFieldsSchema,
});
export type CheckoutPublic = z.infer<typeof checkoutPublicSchema>;

export const checkoutPublicConfirmedSchema = checkoutPublicSchema.extend({
  customer_session_token: z.string(),
});

/** A checkout as the seller's dashboard lists it. */
export const checkoutSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  status: checkoutStatusSchema,
  url: z.string(),
  expires_at: datetime,
  total_amount: z.number().int(),
  currency: z.string(),
  customer_email: z.string().nullable(),
  product: z.object({ id: z.uuid(), name: z.string() }),
});
export type Checkout = z.infer<typeof checkoutSchema>;
