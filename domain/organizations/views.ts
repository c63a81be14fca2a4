import type { OrganizationRow } from './repository.js';
import { addressSchema } from '../addresses/schemas.js';
import {
  BENEFIT_REVOCATION_GRACE_DAYS,
  CUSTOMER_EMAIL_SETTINGS,
  LATER_CUSTOMER_EMAIL_SETTINGS,
  NOTIFICATION_SETTINGS,
  organizationSchema,
  socialLinkSchema,
  type Organization,
} from './schemas.js';
import { DEFAULT_TAX_BEHAVIOR } from '../tax/schemas.js';

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
      reset_proration_behavior_enabled: row.resetProrationBehaviorEnabled,
      seat_based_pricing_enabled: row.seatBasedPricingEnabled,
    },
    subscription_settings: {
      allow_multiple_subscriptions: row.allowMultipleSubscriptions,
      allow_customer_updates: row.allowCustomerUpdates,
      proration_behavior: row.prorationBehavior,
      benefit_revocation_grace_period: BENEFIT_REVOCATION_GRACE_DAYS,
      prevent_trial_abuse: row.preventTrialAbuse,
    },
    // Polar reviews organizations before they may sell; a Tollgate organization sells at once.
    status: 'active',
    proration_behavior: row.prorationBehavior,
    allow_customer_updates: row.allowCustomerUpdates,
    default_presentment_currency: 'usd',
    default_tax_behavior: DEFAULT_TAX_BEHAVIOR,
    notification_settings: NOTIFICATION_SETTINGS,
    customer_email_settings: { ...CUSTOMER_EMAIL_SETTINGS, ...LATER_CUSTOMER_EMAIL_SETTINGS },
    customer_portal_settings: {
      usage: { show: true },
      subscription: {
        update_seats: row.customerPortalUpdateSeats,
        update_plan: row.allowCustomerUpdates,
        pause: row.customerPortalPause,
      },
      customer: { allow_email_change: true },
    },
    dispute_settings: {
      auto_accept_below_amount: row.disputeAutoAcceptBelowAmount,
      revoke_benefits: row.disputeRevokeBenefits,
    },
    embed_hosts: [],
    onboarding_resubmission_requested_at: null,
    sso_enforced: false,
    // Payments go to the seller's own processor account: no Polar account, no payouts from us.
    account_id: null,
    payout_account_id: null,
    capabilities: {
      checkout_payments: true,
      subscription_renewals: true,
      payouts: false,
      refunds: true,
      api_access: true,
      dashboard_access: true,
    },
  });
}
