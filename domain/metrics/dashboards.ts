// Saved metric dashboards: per organization, read by its members, changed by its managers
// (docs/metrics.md, "Dashboards").
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import {
  accessibleOrganizationIds,
  assertCanManage,
  organizationForWrite,
  organizationsToList,
} from '../access/service.js';
import { AppError } from '../platform/errors.js';
import {
  deleteMetricDashboardRow,
  findMetricDashboard,
  insertMetricDashboard,
  listMetricDashboardRows,
  updateMetricDashboardRow,
} from './repository-dashboards.js';
import type {
  MetricDashboard,
  MetricDashboardCreate,
  MetricDashboardListQuery,
  MetricDashboardUpdate,
} from './schemas.js';
import { metricDashboardView } from './views.js';

/** Polar answers the dashboards as a plain array, oldest first (a handful per organization). */
export async function listMetricDashboards(
  db: Db,
  caller: Caller,
  query: MetricDashboardListQuery,
): Promise<MetricDashboard[]> {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  return (await listMetricDashboardRows(db, organizationIds)).map(metricDashboardView);
}

async function findReadable(db: Db, caller: Caller, id: string) {
  const row = await findMetricDashboard(db, id, await accessibleOrganizationIds(db, caller));
  if (!row) throw new AppError('ResourceNotFound', 'Metric dashboard not found');
  return row;
}

export async function getMetricDashboard(db: Db, caller: Caller, id: string): Promise<MetricDashboard> {
  return metricDashboardView(await findReadable(db, caller, id));
}

export async function createMetricDashboard(
  db: Db,
  caller: Caller,
  input: MetricDashboardCreate,
): Promise<MetricDashboard> {
  const organizationId = await organizationForWrite(db, caller, input.organization_id, ORGANIZATION_MANAGERS);
  const row = await insertMetricDashboard(db, {
    organizationId,
    name: input.name,
    metrics: input.metrics ?? [],
  });
  return metricDashboardView(row);
}

export async function updateMetricDashboard(
  db: Db,
  caller: Caller,
  id: string,
  input: MetricDashboardUpdate,
): Promise<MetricDashboard> {
  const existing = await findReadable(db, caller, id);
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  const row = await updateMetricDashboardRow(db, id, existing.organizationId, {
    ...(input.name ? { name: input.name } : {}),
    ...(input.metrics ? { metrics: input.metrics } : {}),
    modifiedAt: new Date(),
  });
  return metricDashboardView(row);
}

export async function deleteMetricDashboard(db: Db, caller: Caller, id: string): Promise<void> {
  const existing = await findReadable(db, caller, id);
  await assertCanManage(db, caller, existing.organizationId, ORGANIZATION_MANAGERS);
  await deleteMetricDashboardRow(db, id, existing.organizationId);
}
