import { z } from 'zod';
import { customerSchema } from '../customers/schemas.js';
import { inVersions } from '../platform/api-versions.js';
import { oneOrManyUuids, pageQuerySchema } from '../platform/schemas.js';

// Polar's license keys as @polar-sh/sdk@0.33.2 reads them.

export const LICENSE_KEY_STATUSES = ['granted', 'revoked', 'disabled'] as const;
export const licenseKeyStatusSchema = z.enum(LICENSE_KEY_STATUSES);
export type LicenseKeyStatus = z.infer<typeof licenseKeyStatusSchema>;

const timestamp = z.iso.datetime({ offset: true });
const metaValue = z.union([z.string(), z.number(), z.boolean()]);

/** The seat member holding a key (Polar's LicenseKeyMember), from version 2026-10. */
export const licenseKeyMemberSchema = z
  .object({ id: z.uuid(), email: z.string(), external_id: z.string().nullable() })
  .meta({ id: 'LicenseKeyMember' });

export const licenseKeySchema = z.object({
  id: z.uuid(),
  created_at: timestamp,
  modified_at: timestamp.nullable(),
  organization_id: z.uuid(),
  customer_id: z.uuid(),
  customer: customerSchema,
  // Polar gives a seat's key to the seat's member; without team customers (members) a seat's
  // holder is a customer of their own, the key's `customer`, and both stay null.
  member_id: inVersions({ from: '2026-10' }, z.uuid().nullable()),
  member: inVersions({ from: '2026-10' }, licenseKeyMemberSchema.nullable()),
  benefit_id: z.uuid(),
  key: z.string(),
  display_key: z.string(),
  status: licenseKeyStatusSchema,
  limit_activations: z.number().int().nullable(),
  usage: z.number().int(),
  limit_usage: z.number().int().nullable(),
  validations: z.number().int(),
  last_validated_at: timestamp.nullable(),
  expires_at: timestamp.nullable(),
});
export type LicenseKey = z.infer<typeof licenseKeySchema>;

export const licenseKeyActivationBaseSchema = z.object({
  id: z.uuid(),
  license_key_id: z.uuid(),
  label: z.string(),
  meta: z.record(z.string(), metaValue),
  created_at: timestamp,
  modified_at: timestamp.nullable(),
});

export const licenseKeyWithActivationsSchema = licenseKeySchema.extend({
  activations: z.array(licenseKeyActivationBaseSchema),
});
export type LicenseKeyWithActivations = z.infer<typeof licenseKeyWithActivationsSchema>;

export const licenseKeyActivationSchema = licenseKeyActivationBaseSchema.extend({
  license_key: licenseKeySchema,
});
export type LicenseKeyActivation = z.infer<typeof licenseKeyActivationSchema>;

export const licenseKeyListQuerySchema = pageQuerySchema.extend({
  organization_id: oneOrManyUuids.optional(),
  benefit_id: oneOrManyUuids.optional(),
});
export type LicenseKeyListQuery = z.infer<typeof licenseKeyListQuerySchema>;

export const licenseKeyIdParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });
export const licenseKeyActivationParamsSchema = licenseKeyIdParamsSchema.extend({
  activation_id: z.uuid({ message: 'Input should be a valid UUID' }),
});

/**
 * A seller's change. The SDK always sends `usage` (its schema defaults it to 0), so a seller who
 * means to keep the count sends it back; Polar reads it the same way.
 */
export const licenseKeyUpdateSchema = z.strictObject({
  status: licenseKeyStatusSchema.nullable().optional(),
  usage: z.number().int().min(0).max(2_147_483_647).optional(),
  limit_activations: z.number().int().min(1).max(50).nullable().optional(),
  limit_usage: z.number().int().min(1).max(2_147_483_647).nullable().optional(),
  expires_at: timestamp.nullable().optional(),
});
export type LicenseKeyUpdate = z.infer<typeof licenseKeyUpdateSchema>;
