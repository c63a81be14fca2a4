import { customerView } from '../customers/views.js';
import type { BenefitRow, GrantRow } from './repository.js';
import { benefitGrantSchema, benefitSchema, type Benefit, type BenefitGrant } from './schemas.js';

export function benefitView(row: BenefitRow): Benefit {
  return benefitSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    organization_id: row.organizationId,
    metadata: row.metadata,
    properties: row.properties,
  });
}

export function benefitGrantView(row: GrantRow): BenefitGrant {
  return benefitGrantSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    granted_at: row.grantedAt?.toISOString() ?? null,
    is_granted: row.grantedAt !== null && row.revokedAt === null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    is_revoked: row.revokedAt !== null,
    subscription_id: row.subscriptionId,
    order_id: row.orderId,
    customer_id: row.customerId,
    benefit_id: row.benefitId,
    error: row.error ?? null,
    customer: customerView(row.customer),
    properties: row.properties,
  });
}
