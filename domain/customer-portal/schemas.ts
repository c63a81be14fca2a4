import { z } from 'zod';
import {
  BENEFIT_TYPES,
  benefitListQuerySchema,
  benefitGrantSchema,
  benefitTypeSchema,
  githubPermissionSchema,
  timeframeSchema,
} from '../benefits/schemas.js';
import { customerMeterListQuerySchema, customerMeterSchema } from '../customer-meters/schemas.js';
import { customerSchema, customerUpdateSchema } from '../customers/schemas.js';
import { productMediaFileSchema } from '../files/schemas.js';
import {
  licenseKeyActivationBaseSchema,
  licenseKeyListQuerySchema,
  licenseKeySchema,
} from '../license-keys/schemas.js';
import { metadataInputSchema, metadataSchema } from '../metadata/schemas.js';
import { meterSchema } from '../meters/schemas.js';
import {
  orderInvoiceSchema,
  orderListQuerySchema,
  orderSchema,
  orderStatusSchema,
  orderUpdateSchema,
  orderSubscriptionSchema,
} from '../orders/schemas.js';
import { inVersions } from '../platform/api-versions.js';
import { organizationSchema } from '../organizations/schemas.js';
import {
  emailAddressSchema,
  nameSchema,
  oneOrManyUuids,
  pageQuerySchema,
  sortingSchema,
  TEXT_MAX_LENGTH,
  textSchema,
} from '../platform/schemas.js';
import { productSchema } from '../products/schemas.js';
import {
  CANCELLATION_REASONS,
  seatChangeSchema,
  subscriptionListQuerySchema,
  subscriptionMeterSchema,
  subscriptionSchema,
} from '../subscriptions/schemas.js';

// The customer portal (`/v1/customer-portal/*`) as @polar-sh/sdk@0.33.2 reads and sends it. The
// buyer sees less than the seller: no metadata of orders and subscriptions, no discount, no
// custom field data, and products and benefits in their public form.

const datetime = z.iso.datetime({ offset: true });

/** A buyer reads these messages in the portal, so they name the thing rather than the format. */
const idOf = (what: string) => z.uuid({ message: `Not a valid ${what} id.` });

// ── Customer ──────────────────────────────────────────────────────────────────────────────────

/** A linked account, keyed by its platform (`github`, `discord`) in `oauth_accounts`. */
export const customerPortalOAuthAccountSchema = z.object({
  account_id: z.string(),
  account_username: z.string().nullable(),
});

export const customerPortalCustomerSchema = customerSchema
  .pick({
    created_at: true,
    modified_at: true,
    id: true,
    email: true,
    email_verified: true,
    name: true,
    billing_name: true,
    billing_address: true,
    tax_id: true,
  })
  .extend({
    oauth_accounts: z.partialRecord(z.enum(['github', 'discord']), customerPortalOAuthAccountSchema),
  });
export type CustomerPortalCustomer = z.infer<typeof customerPortalCustomerSchema>;

export const customerPortalCustomerUpdateSchema = customerUpdateSchema
  .pick({ name: true, billing_address: true })
  .extend({
    billing_name: textSchema({ max: TEXT_MAX_LENGTH.name, trim: true }).nullable().optional(),
    email: emailAddressSchema('Enter a valid email address.')
      .transform((email) => email.toLowerCase())
      .nullable()
      .optional()
      .meta({
        description:
          'Only the current address is accepted (0.33.2 sends it); a new one is confirmed by an emailed link: customers/me/email-update.',
      }),
    // A bare value here, unlike the stored `[value, format]`: the format follows from the
    // billing address's country, which the service checks it against.
    tax_id: textSchema({ max: 64, trim: true }).nullable().optional(),
  });
export type CustomerPortalCustomerUpdate = z.infer<typeof customerPortalCustomerUpdateSchema>;

// ── Products as a buyer sees them ─────────────────────────────────────────────────────────────

export const benefitPublicSchema = z.object({
  id: z.uuid(),
  created_at: datetime,
  modified_at: datetime.nullable(),
  type: benefitTypeSchema,
  description: z.string(),
  selectable: z.boolean(),
  deletable: z.boolean(),
  is_deleted: z.boolean(),
  organization_id: z.uuid(),
});
export type BenefitPublic = z.infer<typeof benefitPublicSchema>;

export const customerProductSchema = productSchema
  .omit({ metadata: true, attached_custom_fields: true })
  .extend({ benefits: z.array(benefitPublicSchema) });
export type CustomerProduct = z.infer<typeof customerProductSchema>;

/** An order's or a subscription's product carries its seller, for the portal's headings. */
export const customerProductWithOrganizationSchema = customerProductSchema.extend({
  organization: organizationSchema,
});

/** The seller's page in the portal: who they are and what a buyer may switch to. */
export const customerOrganizationSchema = z.object({
  organization: organizationSchema,
  products: z.array(customerProductSchema),
});
export type CustomerOrganization = z.infer<typeof customerOrganizationSchema>;

// ── Orders ────────────────────────────────────────────────────────────────────────────────────

export const customerOrderSubscriptionSchema = orderSubscriptionSchema.omit({
  metadata: true,
  custom_field_data: true,
});

/** The saved card an order waiting for its customer is confirmed with (none: a new card). */
const paymentConfirmationCardSchema = z.uuid().nullable();

export const customerOrderSchema = orderSchema
  .omit({ metadata: true, custom_field_data: true, customer: true, discount: true })
  .extend({
    product: customerProductWithOrganizationSchema,
    subscription: customerOrderSubscriptionSchema.nullable(),
    payment_confirmation: z.object({ payment_method_id: paymentConfirmationCardSchema }).nullable().meta({
      description:
        "Tollgate extension: set while the order waits for its customer to confirm the payment with their bank (3-D Secure asked for on a charge made without them); `payment_method_id` is the saved card to confirm it with (confirm-payment's), null when none is. Null otherwise.",
      'x-tollgate': true,
    }),
  });
export type CustomerOrder = z.infer<typeof customerOrderSchema>;

/**
 * Polar's confirm-payment (`customerPortalOrdersConfirmRetryPayment`): a saved card of the
 * customer or a new card's confirmation token, exactly one. Stripe's is the only processor named
 * on the wire (the sandbox reproduces its test mode).
 */
export const customerOrderConfirmPaymentSchema = z
  .strictObject({
    confirmation_token_id: textSchema({ max: 255 }).nullable().optional(),
    payment_method_id: idOf('payment method').nullable().optional(),
    payment_processor: z.literal('stripe', { message: 'The payment processor is stripe.' }).default('stripe'),
  })
  .superRefine((body, check) => {
    const hasToken = body.confirmation_token_id != null;
    const hasCard = body.payment_method_id != null;
    if (!hasToken && !hasCard) {
      check.addIssue({
        code: 'custom',
        path: ['payment_method_id'],
        message: 'Choose a saved card (payment_method_id) or a new card (confirmation_token_id).',
      });
    } else if (hasToken && hasCard) {
      check.addIssue({
        code: 'custom',
        path: ['confirmation_token_id'],
        message: 'Pay with a saved card or a new card, not both.',
      });
    }
  });
export type CustomerOrderConfirmPayment = z.infer<typeof customerOrderConfirmPaymentSchema>;

export const customerOrderPaymentConfirmationSchema = z
  .object({
    /** `requires_action`: the bank asks the customer; `client_secret` opens its page. */
    status: z.enum(['succeeded', 'processing', 'requires_action', 'failed']),
    client_secret: z.string().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'CustomerOrderPaymentConfirmation' });
export type CustomerOrderPaymentConfirmation = z.infer<typeof customerOrderPaymentConfirmationSchema>;

/** The order's latest payment: none yet, one under way, or how the last one ended. */
export const customerOrderPaymentStatusSchema = z
  .object({
    status: z.enum(['no_payment', 'pending', 'succeeded', 'failed']),
    error: z.string().nullable(),
  })
  .meta({ id: 'CustomerOrderPaymentStatus' });
export type CustomerOrderPaymentStatus = z.infer<typeof customerOrderPaymentStatusSchema>;

/** Both fields are required, as Polar has them: a buyer sends the whole billing identity. */
export const customerOrderUpdateSchema = orderUpdateSchema;
export type CustomerOrderUpdate = z.infer<typeof customerOrderUpdateSchema>;

export const customerOrderInvoiceSchema = orderInvoiceSchema;
export type CustomerOrderInvoice = z.infer<typeof customerOrderInvoiceSchema>;

export const customerOrderSortFields = [
  'created_at',
  '-created_at',
  'amount',
  '-amount',
  'net_amount',
  '-net_amount',
  'product',
  '-product',
  'subscription',
  '-subscription',
] as const;

const searchQuery = textSchema({ max: TEXT_MAX_LENGTH.name }).optional();

export const customerOrderListQuerySchema = orderListQuerySchema
  .pick({
    page: true,
    limit: true,
    organization_id: true,
    product_id: true,
    product_billing_type: true,
    subscription_id: true,
  })
  .extend({ query: searchQuery, sorting: sortingSchema(customerOrderSortFields) });
export type CustomerOrderListQuery = z.infer<typeof customerOrderListQuerySchema>;

// ── Subscriptions ─────────────────────────────────────────────────────────────────────────────

const meterSummarySchema = meterSchema.pick({ created_at: true, modified_at: true, id: true, name: true });

export const customerSubscriptionMeterSchema = subscriptionMeterSchema.extend({ meter: meterSummarySchema });

export const customerSubscriptionSchema = subscriptionSchema
  .omit({ metadata: true, custom_field_data: true, customer: true, discount: true })
  .extend({
    product: customerProductWithOrganizationSchema,
    meters: z.array(customerSubscriptionMeterSchema),
    payment_confirmation: z
      .object({ order_id: z.uuid(), payment_method_id: paymentConfirmationCardSchema })
      .nullable()
      .meta({
        description:
          "Tollgate extension: set while the plan's unpaid order waits for its customer to confirm the payment with their bank (see the order's `payment_confirmation`). Null otherwise.",
        'x-tollgate': true,
      }),
  });
export type CustomerSubscription = z.infer<typeof customerSubscriptionSchema>;

/**
 * Matched by shape, as Polar matches it: a plan change, a pause or resume, or a cancellation. Every field of the
 * cancellation is optional in the SDK; `cancel_at_period_end: false` takes a cancellation back.
 * The reason and comment have no `customer_` prefix here, unlike the seller's PATCH.
 */
export const customerSubscriptionUpdateSchema = z.union([
  z.strictObject({ product_id: idOf('product') }),
  // Allowed when the organization's `customer_portal_settings.subscription.update_seats` is on.
  seatChangeSchema,
  // @polar-sh/sdk@0.48.1 CustomerSubscriptionUpdateClear: cancels the change waiting for the period's end.
  z.strictObject({ pending_update: z.null() }),
  // Polar's CustomerSubscriptionPause and CustomerSubscriptionResume (dated versions), allowed when
  // the organization's `customer_portal_settings.subscription.pause` is on (customer-changes.ts).
  z.strictObject({ pause_at_period_end: z.boolean(), resumes_at: datetime.nullable().optional() }),
  z.strictObject({ resume: z.literal(true) }),
  z.strictObject({
    cancel_at_period_end: z
      .boolean({
        message: 'Choose true to cancel at the end of the period, or false to keep the subscription.',
      })
      .nullable()
      .optional(),
    cancellation_reason: z
      .enum(CANCELLATION_REASONS, { message: `Choose one of: ${CANCELLATION_REASONS.join(', ')}.` })
      .nullable()
      .optional(),
    cancellation_comment: textSchema({ max: 1000 }).nullable().optional(),
  }),
]);
export type CustomerSubscriptionUpdate = z.infer<typeof customerSubscriptionUpdateSchema>;

export const customerSubscriptionSortFields = [
  'started_at',
  '-started_at',
  'amount',
  '-amount',
  'status',
  '-status',
  'organization',
  '-organization',
  'product',
  '-product',
] as const;

export const customerSubscriptionListQuerySchema = subscriptionListQuerySchema
  .pick({ page: true, limit: true, organization_id: true, product_id: true, active: true })
  .extend({ query: searchQuery, sorting: sortingSchema(customerSubscriptionSortFields) });
export type CustomerSubscriptionListQuery = z.infer<typeof customerSubscriptionListQuerySchema>;

// ── Benefit grants ────────────────────────────────────────────────────────────────────────────

/** What a benefit shows its holder: no Discord token, no GitHub permission, only the files in use. */
const benefitSubscriberProperties = {
  custom: z.object({ note: z.string().nullable() }),
  discord: z.object({ guild_id: z.string() }),
  github_repository: z.object({ repository_owner: z.string(), repository_name: z.string() }),
  // The benefit's files minus the archived ones: derived, not stored.
  downloadables: z.object({ active_files: z.array(z.uuid()) }),
  license_keys: z.object({
    prefix: z.string().nullable(),
    expires: z.object({ ttl: z.number().int(), timeframe: timeframeSchema }).nullable(),
    activations: z.object({ limit: z.number().int(), enable_customer_admin: z.boolean() }).nullable(),
    limit_usage: z.number().int().nullable(),
  }),
  meter_credit: z.object({ units: z.number().int(), rollover: z.boolean(), meter_id: z.uuid() }),
} as const;

/** What the grant itself records; all optional but meter credit's, as in the SDK. */
const grantProperties = {
  custom: z.object({}),
  discord: z.object({
    account_id: z.string().optional(),
    guild_id: z.string().optional(),
    role_id: z.string().optional(),
  }),
  github_repository: z.object({
    account_id: z.string().optional(),
    repository_owner: z.string().optional(),
    repository_name: z.string().optional(),
    permission: githubPermissionSchema.optional(),
  }),
  downloadables: z.object({ files: z.array(z.uuid()).optional() }),
  license_keys: z.object({ license_key_id: z.uuid().optional(), display_key: z.string().optional() }),
  // Required by the SDK: a meter credit grant is unreadable until it has credited once.
  meter_credit: z.object({
    last_credited_meter_id: z.uuid(),
    last_credited_units: z.number().int(),
    last_credited_at: datetime,
  }),
} as const;

const benefitSubscriberBaseSchema = benefitPublicSchema
  .omit({ type: true })
  .extend({ metadata: metadataSchema, organization: organizationSchema });

const customerBenefitGrantBaseSchema = benefitGrantSchema
  .omit({ error: true, customer: true, properties: true })
  .extend({ customer: customerPortalCustomerSchema });

function customerBenefitGrantOf<T extends (typeof BENEFIT_TYPES)[number]>(type: T) {
  return customerBenefitGrantBaseSchema.extend({
    benefit: benefitSubscriberBaseSchema.extend({
      type: z.literal(type),
      properties: benefitSubscriberProperties[type],
    }),
    properties: grantProperties[type],
  });
}

/**
 * No top-level discriminator: the SDK tries each variant in turn and the embedded benefit's
 * `type` decides, so every grant must carry it.
 */
export const customerBenefitGrantSchema = z.union([
  customerBenefitGrantOf('custom'),
  customerBenefitGrantOf('discord'),
  customerBenefitGrantOf('github_repository'),
  customerBenefitGrantOf('downloadables'),
  customerBenefitGrantOf('license_keys'),
  customerBenefitGrantOf('meter_credit'),
]);
export type CustomerBenefitGrant = z.infer<typeof customerBenefitGrantSchema>;

/** The account a buyer links is the one Polar connected through OAuth; only its id travels. */
const linkedAccountSchema = z.strictObject({
  account_id: textSchema({ min: 1, max: 256 }),
});

/** Only Discord and GitHub grants take input (the account to invite); the rest name their type. */
export const customerBenefitGrantUpdateSchema = z.discriminatedUnion(
  'benefit_type',
  [
    z.strictObject({ benefit_type: z.literal('custom') }),
    z.strictObject({ benefit_type: z.literal('discord'), properties: linkedAccountSchema }),
    z.strictObject({ benefit_type: z.literal('github_repository'), properties: linkedAccountSchema }),
    z.strictObject({ benefit_type: z.literal('downloadables') }),
    z.strictObject({ benefit_type: z.literal('license_keys') }),
    z.strictObject({ benefit_type: z.literal('meter_credit') }),
  ],
  { message: `benefit_type must be the benefit's type: one of ${BENEFIT_TYPES.join(', ')}.` },
);
export type CustomerBenefitGrantUpdate = z.infer<typeof customerBenefitGrantUpdateSchema>;

export const customerBenefitGrantSortFields = [
  'granted_at',
  '-granted_at',
  'type',
  '-type',
  'organization',
  '-organization',
  'product_benefit',
  '-product_benefit',
] as const;

export const customerBenefitGrantListQuerySchema = benefitListQuerySchema
  .pick({ page: true, limit: true, organization_id: true, type: true })
  .extend({
    benefit_id: oneOrManyUuids.optional(),
    checkout_id: oneOrManyUuids.optional(),
    order_id: oneOrManyUuids.optional(),
    subscription_id: oneOrManyUuids.optional(),
    sorting: sortingSchema(customerBenefitGrantSortFields),
  });
export type CustomerBenefitGrantListQuery = z.infer<typeof customerBenefitGrantListQuerySchema>;

// ── Downloadables ─────────────────────────────────────────────────────────────────────────────

/** A presigned link; it expires, so the portal asks again rather than caching it. */
export const fileDownloadUrlSchema = z.object({
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  expires_at: datetime,
});

export const fileDownloadSchema = productMediaFileSchema
  .omit({ service: true, created_at: true, public_url: true })
  .extend({ service: z.literal('downloadable'), download: fileDownloadUrlSchema });

export const downloadableSchema = z.object({
  id: z.uuid(),
  benefit_id: z.uuid(),
  file: fileDownloadSchema,
});
export type Downloadable = z.infer<typeof downloadableSchema>;

export const downloadableListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  benefit_id: oneOrManyUuids.optional(),
});
export type DownloadableListQuery = z.infer<typeof downloadableListQuerySchema>;

// ── Meters ────────────────────────────────────────────────────────────────────────────────────

export const customerCustomerMeterSchema = customerMeterSchema.omit({ customer: true }).extend({
  // Whole units: credits come from meter credit benefits, which grant integers.
  credited_units: z.number().int(),
  meter: meterSummarySchema,
});
export type CustomerCustomerMeter = z.infer<typeof customerCustomerMeterSchema>;

export const customerCustomerMeterSortFields = [
  'created_at',
  '-created_at',
  'modified_at',
  '-modified_at',
  'meter_id',
  '-meter_id',
  'meter_name',
  '-meter_name',
  'consumed_units',
  '-consumed_units',
  'credited_units',
  '-credited_units',
  'balance',
  '-balance',
] as const;

export const customerCustomerMeterListQuerySchema = customerMeterListQuerySchema
  .pick({ page: true, limit: true, meter_id: true })
  .extend({ query: searchQuery, sorting: sortingSchema(customerCustomerMeterSortFields) });
export type CustomerCustomerMeterListQuery = z.infer<typeof customerCustomerMeterListQuerySchema>;

// ── License keys ──────────────────────────────────────────────────────────────────────────────

/** The SDK sends one benefit id here, not a list. */
export const customerLicenseKeyListQuerySchema = licenseKeyListQuerySchema.extend({
  benefit_id: idOf('benefit').optional(),
});
export type CustomerLicenseKeyListQuery = z.infer<typeof customerLicenseKeyListQuerySchema>;

/**
 * A buyer's key with the purchase it came with: two keys of one benefit, from two purchases, are
 * told apart by the product and the order.
 */
export const customerLicenseKeySchema = licenseKeySchema.extend({
  granted_for: z
    .object({
      /** The product's name when it was bought. */
      product_name: z.string(),
      order_id: z.uuid(),
      ordered_at: z.iso.datetime({ offset: true }),
      subscription_id: z.uuid().nullable(),
    })
    .nullable()
    .meta({
      description:
        "Tollgate extension: the order the key came with (a plan's first order for a subscription's key), with the product's name when it was bought; null when the order is gone.",
      'x-tollgate': true,
    }),
});
export type CustomerLicenseKey = z.infer<typeof customerLicenseKeySchema>;

const licenseKeySubscriptionSchema = orderSubscriptionSchema
  .pick({
    id: true,
    status: true,
    current_period_start: true,
    current_period_end: true,
    cancel_at_period_end: true,
    ends_at: true,
  })
  .meta({ id: 'LicenseKeySubscription' });
const licenseKeyOrderSchema = z
  .object({ id: z.uuid(), created_at: datetime, status: orderStatusSchema, paid: z.boolean() })
  .meta({ id: 'LicenseKeyOrder' });

/**
 * A key as validating or activating it answers (Polar's GrantedLicenseKey): from 2027-01 with the
 * subscription or the order whose grant made it, so the seller's app can tell a lapsed plan.
 */
export const grantedLicenseKeySchema = licenseKeySchema.extend({
  subscription_id: inVersions({ from: '2027-01' }, z.uuid().nullable()),
  subscription: inVersions({ from: '2027-01' }, licenseKeySubscriptionSchema.nullable()),
  order_id: inVersions({ from: '2027-01' }, z.uuid().nullable()),
  order: inVersions({ from: '2027-01' }, licenseKeyOrderSchema.nullable()),
});

/** Present when the validation named an activation. */
export const validatedLicenseKeySchema = grantedLicenseKeySchema.extend({
  activation: licenseKeyActivationBaseSchema.nullable().optional(),
});
export type ValidatedLicenseKey = z.infer<typeof validatedLicenseKeySchema>;

/** The same shape on both sides (LicenseKeyActivationRead), its key as validating answers it. */
export const licenseKeyActivationSchema = licenseKeyActivationBaseSchema.extend({
  license_key: grantedLicenseKeySchema,
});
export type LicenseKeyActivation = z.infer<typeof licenseKeyActivationSchema>;

// Validate, activate and deactivate are called by the seller's software on the buyer's machine,
// with the key the buyer typed: the key itself is the credential.
const licenseKeyInput = {
  key: textSchema({ min: 1, max: 256, trim: true }),
  organization_id: idOf('organization'),
};

export const licenseKeyValidateSchema = z.strictObject({
  ...licenseKeyInput,
  activation_id: idOf('activation').nullable().optional(),
  benefit_id: idOf('benefit').nullable().optional(),
  customer_id: idOf('customer').nullable().optional(),
  // Bounded by the usage column (a 32-bit integer); a negative increment would hand usage back.
  increment_usage: z
    .number()
    .int({ message: 'Usage is counted in whole units.' })
    .min(0, { message: 'Usage cannot be decreased.' })
    .max(2_147_483_647)
    .nullable()
    .optional(),
  conditions: metadataInputSchema.optional(),
});
export type LicenseKeyValidate = z.infer<typeof licenseKeyValidateSchema>;

export const licenseKeyActivateSchema = z.strictObject({
  ...licenseKeyInput,
  label: nameSchema(256),
  conditions: metadataInputSchema.optional(),
  meta: metadataInputSchema.optional(),
});
export type LicenseKeyActivate = z.infer<typeof licenseKeyActivateSchema>;

export const licenseKeyDeactivateSchema = z.strictObject({
  ...licenseKeyInput,
  activation_id: idOf('activation'),
});
export type LicenseKeyDeactivate = z.infer<typeof licenseKeyDeactivateSchema>;
