import { readMetadata } from '../metadata/rules.js';
import type { CustomFieldRow } from './repository.js';
import { customFieldSchema, type CustomField } from './schemas.js';

export function customFieldView(row: CustomFieldRow): CustomField {
  return customFieldSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    metadata: readMetadata(row.metadata),
    type: row.type,
    slug: row.slug,
    name: row.name,
    organization_id: row.organizationId,
    properties: row.properties,
  });
}
