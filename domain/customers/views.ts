import { createHash } from 'node:crypto';
import type { CustomerRow } from './repository.js';
import { addressSchema } from '../addresses/schemas.js';
import { customerSchema, taxIdSchema, type Customer } from './schemas.js';

/** Gravatar by the SHA-256 of the address; `d=404` lets clients fall back to initials. */
function avatarUrlFor(email: string): string {
  return `https://www.gravatar.com/avatar/${createHash('sha256').update(email).digest('hex')}?d=404`;
}

export function customerView(row: CustomerRow): Customer {
  return customerSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    metadata: row.metadata,
    external_id: row.externalId,
    email: row.email,
    email_verified: row.emailVerified,
    name: row.name,
    billing_name: row.billingName,
    billing_address: row.billingAddress === null ? null : addressSchema.parse(row.billingAddress),
    tax_id: row.taxId === null ? null : taxIdSchema.parse(row.taxId),
    organization_id: row.organizationId,
    deleted_at: row.deletedAt?.toISOString() ?? null,
    first_user_event_at: row.firstUserEventAt?.toISOString() ?? null,
    avatar_url: avatarUrlFor(row.email),
    type: 'individual',
  });
}

/** The country of a stored billing address, if it has one. */
export function countryOf(address: unknown): string | null {
  const parsed = addressSchema.nullable().safeParse(address ?? null);
  return parsed.success ? (parsed.data?.country ?? null) : null;
}

export const CUSTOMER_EXPORT_COLUMNS = [
  'Customer ID',
  'Email',
  'Name',
  'External ID',
  'Created At',
  'Billing Country',
] as const;

export function customerExportRow(row: CustomerRow): (string | null)[] {
  const address = row.billingAddress === null ? null : addressSchema.parse(row.billingAddress);
  return [row.id, row.email, row.name, row.externalId, row.createdAt.toISOString(), address?.country ?? null];
}
