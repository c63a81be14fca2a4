import { z } from 'zod';
import { addressInputSchema, addressSchema } from '../addresses/schemas.js';
import { TIME_ZONE_MAX_LENGTH } from '../dates/rules.js';
import { DEFAULT_TAX_BEHAVIOR, TAX_BEHAVIORS } from '../tax/schemas.js';
import {
  emailAddressSchema,
  minorUnitsSchema,
  nameSchema,
  offUntilBuilt,
  TEXT_MAX_LENGTH,
  textSchema,
  withTextRule,
} from '../platform/schemas.js';

// Polar's Organization (seller profile) as @polar-sh/sdk@0.33.2 reads it; spec §3.

export const socialPlatformSchema = z.enum([
  'x',
  'github',
  'facebook',
  'instagram',
  'youtube',
  'tiktok',
  'linkedin',
  'other',
]);

export const socialLinkSchema = z.object({ platform: socialPlatformSchema, url: z.url() });

const urlInputSchema = withTextRule(z.url(), { max: TEXT_MAX_LENGTH.url });
const emailInputSchema = emailAddressSchema();
const socialLinkInputSchema = z.object({ platform: socialPlatformSchema, url: urlInputSchema });

/**
 * @polar-sh/sdk@0.48.1 SubscriptionProrationBehavior. `next_period` schedules a plan change for the
 * period's end (subscriptions' `pending_update`); `reset` restarts the period at the change.
 */
export const prorationBehaviorSchema = z.enum(['invoice', 'prorate', 'next_period', 'reset']);

export const organizationFeatureSettingsSchema = z.object({
  issue_funding_enabled: z.boolean(),
  usage_based_billing_enabled: z.boolean(),
  reset_proration_behavior_enabled: z.boolean(),
  seat_based_pricing_enabled: z.boolean(),
});

export const organizationSubscriptionSettingsSchema = z.object({
  allow_multiple_subscriptions: z.boolean(),
  allow_customer_updates: z.boolean(),
  proration_behavior: prorationBehaviorSchema,
  benefit_revocation_grace_period: z.number().int(),
  prevent_trial_abuse: z.boolean(),
});

/**
 * Days a past-due subscription keeps its benefits: Tollgate revokes them only when dunning ends,
 * after its default retries (2 + 5 + 7 + 7 days, `DEFAULT_DUNNING_RETRY_DAYS` in
 * subscriptions/rules.ts), not at the first failed payment.
 */
export const BENEFIT_REVOCATION_GRACE_DAYS = 21;

/** The emails Tollgate sends a customer (true) and those it has no occasion for yet (trials, reminders). */
export const CUSTOMER_EMAIL_SETTINGS = {
  order_confirmation: true,
  subscription_cancellation: true,
  subscription_confirmation: true,
  subscription_cycled: true,
  subscription_cycled_after_trial: true,
  subscription_past_due: true,
  subscription_renewal_reminder: false,
  subscription_revoked: false,
  subscription_trial_conversion_reminder: true,
  subscription_uncanceled: false,
  subscription_updated: false,
} as const;

/**
 * The settings Polar's dated versions added after @polar-sh/sdk@0.48.1, all off: Tollgate sends no
 * card-expiry reminder, and pausing is not built.
 */
export const LATER_CUSTOMER_EMAIL_SETTINGS = {
  payment_method_expiration_reminder: false,
  subscription_paused: false,
  subscription_resumed: false,
} as const;

/** Owners and admins get the "New order" email, a new subscription's first order included. */
export const NOTIFICATION_SETTINGS = { new_order: true, new_subscription: true } as const;

export const organizationCustomerPortalSettingsSchema = z.object({
  usage: z.object({ show: z.boolean() }),
  subscription: z.object({
    update_seats: z.boolean(),
    update_plan: z.boolean(),
    /** Polar's portal pause: buyers may pause and resume their plans in the portal (default off). */
    pause: z.boolean(),
  }),
  customer: z.object({ allow_email_change: z.boolean() }),
});

export const organizationCapabilitiesSchema = z.object({
  checkout_payments: z.boolean(),
  subscription_renewals: z.boolean(),
  payouts: z.boolean(),
  refunds: z.boolean(),
  api_access: z.boolean(),
  dashboard_access: z.boolean(),
});

export const organizationSchema = z.object({
  created_at: z.iso.datetime({ offset: true }),
  modified_at: z.iso.datetime({ offset: true }).nullable(),
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  avatar_url: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  address: addressSchema.nullable().meta({
    description: "Tollgate extension: the seller's postal address, printed in the invoice's seller block.",
    'x-tollgate': true,
  }),
  time_zone: z.string().meta({
    description:
      'Tollgate extension: the IANA time zone (e.g. Europe/Berlin) of the days and times people read in the dashboard, emails and invoices. UTC unless set.',
    'x-tollgate': true,
  }),
  socials: z.array(socialLinkSchema),
  details_submitted_at: z.iso.datetime({ offset: true }).nullable(),
  feature_settings: organizationFeatureSettingsSchema.nullable(),
  subscription_settings: organizationSubscriptionSettingsSchema,
  status: z.enum(['created', 'review', 'snoozed', 'denied', 'active', 'blocked', 'offboarding']),
  proration_behavior: prorationBehaviorSchema,
  allow_customer_updates: z.boolean(),
  default_presentment_currency: z.string(),
  default_tax_behavior: z.enum(TAX_BEHAVIORS),
  notification_settings: z.object({ new_order: z.boolean(), new_subscription: z.boolean() }),
  customer_email_settings: z.object({
    order_confirmation: z.boolean(),
    subscription_cancellation: z.boolean(),
    subscription_confirmation: z.boolean(),
    subscription_cycled: z.boolean(),
    subscription_cycled_after_trial: z.boolean(),
    subscription_past_due: z.boolean(),
    subscription_renewal_reminder: z.boolean(),
    subscription_revoked: z.boolean(),
    subscription_trial_conversion_reminder: z.boolean(),
    subscription_uncanceled: z.boolean(),
    subscription_updated: z.boolean(),
    payment_method_expiration_reminder: z.boolean(),
    subscription_paused: z.boolean(),
    subscription_resumed: z.boolean(),
  }),
  customer_portal_settings: organizationCustomerPortalSettingsSchema,
  /**
   * `auto_accept_below_amount`: disputes of less (Polar's `amount`, in minor units of the dispute's
   * own currency: Tollgate settles nothing in a currency of its own) are accepted as they open;
   * null accepts none. `revoke_benefits` (ours): a dispute of a one-time order revokes its benefits
   * while it is open or lost (docs/payments.md, "Disputes").
   */
  dispute_settings: z.object({
    auto_accept_below_amount: z.number().int().nullable(),
    revoke_benefits: z.boolean().meta({
      description:
        "Tollgate extension: a dispute of a one-time order revokes the order's benefits while it is open or lost.",
      'x-tollgate': true,
    }),
  }),
  /** Hosts the checkout may be embedded in beyond the organization's own; none are configurable yet. */
  embed_hosts: z.array(z.string()),
  /** Polar's review may ask a seller to resubmit details; a Tollgate organization is never reviewed. */
  onboarding_resubmission_requested_at: z.iso.datetime({ offset: true }).nullable(),
  /** Single sign-on is not built. */
  sso_enforced: z.boolean(),
  account_id: z.uuid().nullable(),
  payout_account_id: z.uuid().nullable(),
  capabilities: organizationCapabilitiesSchema,
});

export const organizationIdParamsSchema = z.object({
  id: z.uuid({ message: 'Input should be a valid UUID' }),
});

export type Organization = z.infer<typeof organizationSchema>;
export type SocialLink = z.infer<typeof socialLinkSchema>;

export const switchingFromSchema = z.enum(['paddle', 'lemon_squeezy', 'gumroad', 'stripe', 'other']);

const answerSchema = textSchema({ max: TEXT_MAX_LENGTH.description, min: 1 });

export const organizationDetailsSchema = z.strictObject({
  about: answerSchema,
  product_description: answerSchema,
  intended_use: answerSchema,
  customer_acquisition: z.array(textSchema({ max: TEXT_MAX_LENGTH.name, min: 1 })),
  future_annual_revenue: z.number().int().min(0),
  switching: z.boolean().default(true),
  switching_from: switchingFromSchema.nullable().optional(),
  previous_annual_revenue: z.number().int().min(0).default(0),
});

const slugSchema = z
  .string()
  .min(3)
  .max(64)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'Slug may contain lowercase letters, digits and hyphens.');

const profileFields = {
  avatar_url: urlInputSchema.nullable().optional(),
  email: emailInputSchema.nullable().optional(),
  website: urlInputSchema.nullable().optional(),
  address: addressInputSchema.nullable().optional(),
  time_zone: textSchema({ max: TIME_ZONE_MAX_LENGTH, min: 1 }).optional().meta({
    description:
      'Tollgate extension: the IANA time zone (e.g. Europe/Berlin) of the days and times people read in the dashboard, emails and invoices.',
    'x-tollgate': true,
  }),
  socials: z.array(socialLinkInputSchema).nullable().optional(),
  details: organizationDetailsSchema.nullable().optional(),
  feature_settings: z
    .strictObject({
      issue_funding_enabled: z.boolean().optional(),
      usage_based_billing_enabled: z.boolean().optional(),
      // Polar's feature flags (@polar-sh/sdk@0.48.1 sends them all when it sends any).
      seat_based_pricing_enabled: z.boolean().optional(),
      wallets_enabled: offUntilBuilt(z.boolean(), [false], 'Wallets'),
      member_model_enabled: offUntilBuilt(z.boolean(), [false], 'Team customers'),
      checkout_localization_enabled: offUntilBuilt(z.boolean(), [false], 'Checkout localization'),
      account_review_v2_enabled: offUntilBuilt(z.boolean(), [false], 'Account review'),
      overview_metrics: offUntilBuilt(
        z.array(textSchema({ max: 64 })).max(50),
        [],
        'Choosing overview metrics',
      ),
      reset_proration_behavior_enabled: z.boolean().optional(),
      off_session_charges_enabled: offUntilBuilt(z.boolean(), [false], 'Off-session charges'),
      billing_enabled: offUntilBuilt(z.boolean(), [false], "Polar's billing flag"),
      slack_benefit_enabled: offUntilBuilt(z.boolean(), [false], 'The Slack benefit'),
    })
    .nullable()
    .optional(),
  subscription_settings: z
    .strictObject({
      allow_multiple_subscriptions: z.boolean(),
      allow_customer_updates: z.boolean(),
      proration_behavior: prorationBehaviorSchema,
      benefit_revocation_grace_period: offUntilBuilt(
        z.number().int(),
        [BENEFIT_REVOCATION_GRACE_DAYS],
        'A benefit revocation grace period other than the dunning period',
      ),
      // Left out, the organization's setting stays as it is (callers older than the setting).
      prevent_trial_abuse: z.boolean().optional(),
    })
    .nullable()
    .optional(),
  dispute_settings: z
    .strictObject({
      auto_accept_below_amount: minorUnitsSchema().min(1).nullable().optional(),
      revoke_benefits: z.boolean().optional().meta({
        description:
          "Tollgate extension: a dispute of a one-time order revokes the order's benefits while it is open or lost.",
        'x-tollgate': true,
      }),
    })
    .nullable()
    .optional(),
  notification_settings: offUntilBuilt(
    z.strictObject({ new_order: z.boolean(), new_subscription: z.boolean() }),
    [NOTIFICATION_SETTINGS],
    "Turning the organization's notifications off (each member chooses their own, notification-settings)",
  ),
  customer_email_settings: offUntilBuilt(
    z.strictObject({
      ...(Object.fromEntries(Object.keys(CUSTOMER_EMAIL_SETTINGS).map((key) => [key, z.boolean()])) as Record<
        keyof typeof CUSTOMER_EMAIL_SETTINGS,
        z.ZodBoolean
      >),
      // 0.48.1 sends the settings without these, Polar's dated versions with them.
      ...(Object.fromEntries(
        Object.keys(LATER_CUSTOMER_EMAIL_SETTINGS).map((key) => [key, z.boolean().optional()]),
      ) as Record<keyof typeof LATER_CUSTOMER_EMAIL_SETTINGS, z.ZodOptional<z.ZodBoolean>>),
    }),
    [CUSTOMER_EMAIL_SETTINGS, { ...CUSTOMER_EMAIL_SETTINGS, ...LATER_CUSTOMER_EMAIL_SETTINGS }],
    'Choosing which emails customers get',
  ),
  customer_portal_settings: z
    .strictObject({
      usage: offUntilBuilt(
        z.strictObject({ show: z.boolean() }),
        [{ show: true }],
        'Hiding usage in the portal',
      ),
      subscription: z
        .strictObject({
          // Null or absent leaves the setting as it is, as for `pause`.
          update_seats: z.boolean().nullable().optional(),
          update_plan: z.boolean(),
          // Polar's `customer_portal_settings.subscription.pause` (its model: NotRequired, default false).
          pause: z.boolean().optional(),
        })
        .nullable()
        .optional(),
      customer: offUntilBuilt(
        z.strictObject({ allow_email_change: z.boolean().optional() }),
        [{ allow_email_change: true }, {}],
        'Refusing email changes in the portal',
      ),
    })
    .nullable()
    .optional(),
  country: offUntilBuilt(textSchema({ max: 2 }), [], "The organization's country"),
  legal_entity: offUntilBuilt(z.record(textSchema({ max: 64 }), z.unknown()), [], 'Legal entities'),
  default_presentment_currency: offUntilBuilt(textSchema({ max: 3 }), ['usd'], 'Presentment currencies'),
  default_tax_behavior: offUntilBuilt(z.enum(TAX_BEHAVIORS), [DEFAULT_TAX_BEHAVIOR], 'Tax-inclusive pricing'),
};

export const organizationCreateSchema = z.strictObject({
  name: nameSchema(255),
  slug: slugSchema,
  ...profileFields,
});

export const organizationUpdateSchema = z.strictObject({
  name: nameSchema(255).nullable().optional(),
  ...profileFields,
});

export const organizationSortFields = [
  'created_at',
  '-created_at',
  'slug',
  '-slug',
  'name',
  '-name',
] as const;

export type OrganizationCreate = z.infer<typeof organizationCreateSchema>;
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

/**
 * The seller profile as Better Auth's camelCase view carries it (`/api/auth/organization/*`):
 * the same columns as the snake_case `/v1` view, flattened into additional organization fields.
 */
export const sellerProfileInputSchema = z.object({
  email: emailInputSchema.nullish(),
  website: urlInputSchema.nullish(),
  socials: z.array(socialLinkInputSchema).nullish(),
  issueFundingEnabled: z.boolean().optional(),
  usageBasedBillingEnabled: z.boolean().optional(),
  allowMultipleSubscriptions: z.boolean().optional(),
  allowCustomerUpdates: z.boolean().optional(),
  prorationBehavior: prorationBehaviorSchema.optional(),
});

/** The signed-in member's own notifications from one organization (our extension). */
export const notificationSettingsSchema = z.object({
  new_order_email: z.boolean().meta({
    description: 'Whether this member gets the "New order" email for each paid order of the organization.',
  }),
  new_order_email_default: z.boolean().meta({
    description:
      "What this member's role gets unless they choose: on for owners and admins, off for members.",
  }),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsUpdateSchema = z.strictObject({
  new_order_email: z.boolean().nullable().meta({
    description: "true or false: the member's own choice; null: back to their role's default.",
  }),
});
export type NotificationSettingsUpdate = z.infer<typeof notificationSettingsUpdateSchema>;
