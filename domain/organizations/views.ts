import type { OrganizationRow } from './repository.js';
import { addressSchema } from '../addresses/schemas.js';
import { organizationSchema, socialLinkSchema, type Organization } from './schemas.js';

export function organizationView(row: OrganizationRow): Organization {
  return organizationSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    slug: row.slug,
    avatar_url: row.logo,
    email: row.email,
    website: row.website,
    address: row.address === null ? null : addressSchema.parse(row.address),
    time_zone: row.timeZone,
    socials: socialLinkSchema.array().parse(row.socials),
    details_submitted_at: row.detailsSubmittedAt?.toISOString() ?? null,
    feature_settings: {
      issue_funding_enabled: row.issueFundingEnabled,
      usage_based_billing_enabled: row.usageBasedBillingEnabled,
    },
    subscription_settings: {
      allow_multiple_subscriptions: row.allowMultipleSubscriptions,
      allow_customer_updates: row.allowCustomerUpdates,
      proration_behavior: row.prorationBehavior,
    },
  });
}
