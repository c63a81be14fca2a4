import type { MetricDashboardRow } from './repository-dashboards.js';
import { metricDashboardSchema, type MetricDashboard } from './schemas.js';

export function metricDashboardView(row: MetricDashboardRow): MetricDashboard {
  return metricDashboardSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    metrics: row.metrics,
    organization_id: row.organizationId,
  });
}
