import { customerView } from '../customers/views.js';
import type { KeyPurchase, LicenseKeyActivationRow, LicenseKeyRow } from './repository.js';
import { displayKeyOf } from './rules.js';
import type { licenseKeyActivationBaseSchema, licenseKeySchema } from './schemas.js';
import { type LicenseKey, type LicenseKeyStatus } from './schemas.js';
import type { z } from 'zod';

export function licenseKeyView(row: Omit<LicenseKeyRow, 'activations'>): LicenseKey {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    organization_id: row.organizationId,
    customer_id: row.customerId,
    customer: customerView(row.customer),
    member_id: null,
    member: null,
    benefit_id: row.benefitId,
    key: row.key,
    display_key: displayKeyOf(row.key),
    status: row.status as LicenseKeyStatus,
    limit_activations: row.limitActivations,
    usage: row.usage,
    limit_usage: row.limitUsage,
    validations: row.validations,
    last_validated_at: row.lastValidatedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
  } satisfies z.input<typeof licenseKeySchema>;
}

/** A key with the order or subscription that granted it (Polar's GrantedLicenseKey, 2027-01). */
export function grantedLicenseKeyView(
  row: Omit<LicenseKeyRow, 'activations'>,
  { order, subscription }: KeyPurchase,
) {
  return {
    ...licenseKeyView(row),
    subscription_id: subscription?.id ?? null,
    subscription: subscription
      ? {
          id: subscription.id,
          status: subscription.status,
          current_period_start: subscription.currentPeriodStart.toISOString(),
          // As the subscription shows it: an ended one's last period ends when it ended.
          current_period_end: (subscription.endedAt && subscription.endedAt < subscription.currentPeriodEnd
            ? subscription.endedAt
            : subscription.currentPeriodEnd
          ).toISOString(),
          cancel_at_period_end: subscription.cancelAtPeriodEnd,
          ends_at: subscription.endsAt?.toISOString() ?? null,
        }
      : null,
    order_id: order?.id ?? null,
    order: order
      ? {
          id: order.id,
          created_at: order.createdAt.toISOString(),
          status: order.status,
          paid: order.status !== 'pending' && order.status !== 'draft',
        }
      : null,
  };
}

export function licenseKeyActivationView(
  row: LicenseKeyActivationRow,
): z.infer<typeof licenseKeyActivationBaseSchema> {
  return {
    id: row.id,
    license_key_id: row.licenseKeyId,
    label: row.label,
    meta: row.meta as Record<string, string | number | boolean>,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
  };
}
