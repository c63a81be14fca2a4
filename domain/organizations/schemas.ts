import { z } from 'zod';

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
