import type { BenefitRow } from './repository.js';
import { benefitSchema, type Benefit } from './schemas.js';

export function benefitView(row: BenefitRow): Benefit {
  return benefitSchema.parse({
    id: row.id,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    type: row.type,
    description: row.description,
    selectable: row.selectable,
    deletable: row.deletable,
    is_deleted: row.deletedAt !== null,
    organization_id: row.organizationId,
    metadata: row.metadata,
    visibility: 'public',
    visibility_configurable: false,
    properties: row.properties,
  });
}
