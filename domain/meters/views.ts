import { readMetadata } from '../metadata/rules.js';
import type { MeterRow } from './repository.js';
import { aggregationSchema, filterSchema, meterSchema, type Meter } from './schemas.js';

export function meterView(row: MeterRow): Meter {
  return meterSchema.parse({
    metadata: readMetadata(row.metadata),
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    filter: filterSchema.parse(row.filter),
    aggregation: aggregationSchema.parse(row.aggregation),
    unit: 'scalar',
    organization_id: row.organizationId,
  });
}
