import { customerView } from '../customers/views.js';
import type { LicenseKeyActivationRow, LicenseKeyRow } from './repository.js';
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
