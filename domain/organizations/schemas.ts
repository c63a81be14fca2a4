import { z } from 'zod';
import { addressInputSchema, addressSchema } from '../addresses/schemas.js';
import { TIME_ZONE_MAX_LENGTH } from '../dates/rules.js';
import {
  emailAddressSchema,
  nameSchema,
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

export const prorationBehaviorSchema = z.enum(['invoice', 'prorate']);

export const organizationFeatureSettingsSchema = z.object({
  issue_funding_enabled: z.boolean(),
  usage_based_billing_enabled: z.boolean(),
});

export const organizationSubscriptionSettingsSchema = z.object({
  allow_multiple_subscriptions: z.boolean(),
  allow_customer_updates: z.boolean(),
  proration_behavior: prorationBehaviorSchema,
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
    })
    .nullable()
    .optional(),
  subscription_settings: organizationSubscriptionSettingsSchema.strict().nullable().optional(),
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
