// The saved metric dashboards (`metric_dashboards`), the one table the metrics own.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';

type Client = Db | Prisma.TransactionClient;

export function listMetricDashboardRows(db: Client, organizationIds: string[]) {
  return db.metricDashboard.findMany({
    where: { organizationId: { in: organizationIds } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

export function findMetricDashboard(db: Client, id: string, organizationIds: string[]) {
  return db.metricDashboard.findFirst({ where: { id, organizationId: { in: organizationIds } } });
}

export function insertMetricDashboard(db: Client, data: Prisma.MetricDashboardUncheckedCreateInput) {
  return db.metricDashboard.create({ data });
}

export function updateMetricDashboardRow(
  db: Client,
  id: string,
  organizationId: string,
  data: Prisma.MetricDashboardUpdateInput,
) {
  return db.metricDashboard.update({ where: { id, organizationId }, data });
}

export function deleteMetricDashboardRow(db: Client, id: string, organizationId: string) {
  return db.metricDashboard.delete({ where: { id, organizationId } });
}

export type MetricDashboardRow = NonNullable<Awaited<ReturnType<typeof findMetricDashboard>>>;
