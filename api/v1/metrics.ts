import { once } from 'node:events';
import { z } from 'zod';
import type { Db } from '../../infra/db.js';
import { metricsLimits } from '../../domain/metrics/rules.js';
import {
  createMetricDashboard,
  deleteMetricDashboard,
  getMetricDashboard,
  listMetricDashboards,
  updateMetricDashboard,
} from '../../domain/metrics/dashboards.js';
import { idParamsSchema } from '../../domain/platform/schemas.js';
import {
  metricDashboardCreateSchema,
  metricDashboardListQuerySchema,
  metricDashboardSchema,
  metricDashboardUpdateSchema,
  metricsLimitsSchema,
  metricsQuerySchema,
  metricsResponseSchema,
} from '../../domain/metrics/schemas.js';
import { exportMetrics, getMetrics } from '../../domain/metrics/service.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'metrics' } as const;

export function registerMetricOperations(api: OperationRegistry, ctx: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/metrics/',
      operationId: 'metrics:get',
      summary:
        "An organization's orders, revenue, subscriptions, checkouts, customers and refunds per period (docs/metrics.md)",
      query: metricsQuerySchema,
      response: metricsResponseSchema,
    },
    async ({ query, caller }) => getMetrics(ctx.db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/metrics/export',
      operationId: 'metrics:export',
      summary: 'The same figures as CSV: a line per period, a column per metric (docs/metrics.md)',
      query: metricsQuerySchema,
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => {
      const lines = exportMetrics(ctx.db, caller, query);
      // The first line is produced before anything is sent, so a refused query still gets JSON.
      const header = await lines.next();
      res.status(200);
      res.set({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="metrics.csv"',
      });
      if (!header.done) res.write(header.value);
      for await (const line of lines) {
        if (!res.write(line)) await once(res, 'drain');
      }
      res.end();
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/metrics/limits',
      operationId: 'metrics:limits',
      summary: 'The dates and the longest range per interval the metrics answer',
      response: metricsLimitsSchema,
    },
    async () => metricsLimits(),
  );
  const dashboards = { ...common, errors: ['NotPermitted', 'ResourceNotFound'] } as const;
  api.add(
    {
      ...dashboards,
      method: 'get',
      path: '/metrics/dashboards',
      operationId: 'metrics:list_dashboards',
      summary: "The organization's saved metric dashboards, oldest first",
      query: metricDashboardListQuerySchema,
      response: z.array(metricDashboardSchema),
    },
    async ({ query, caller }) => listMetricDashboards(ctx.db, caller, query),
  );
  api.add(
    {
      ...dashboards,
      method: 'post',
      path: '/metrics/dashboards',
      operationId: 'metrics:create_dashboard',
      summary: 'Save a dashboard: a name and the metrics it pins',
      body: metricDashboardCreateSchema,
      response: metricDashboardSchema,
      status: 201,
    },
    async ({ body, caller }) => createMetricDashboard(ctx.db, caller, body),
  );
  api.add(
    {
      ...dashboards,
      method: 'get',
      path: '/metrics/dashboards/{id}',
      operationId: 'metrics:get_dashboard',
      summary: 'Get a saved metric dashboard',
      params: idParamsSchema,
      response: metricDashboardSchema,
    },
    async ({ params, caller }) => getMetricDashboard(ctx.db, caller, params.id),
  );
  api.add(
    {
      ...dashboards,
      method: 'patch',
      path: '/metrics/dashboards/{id}',
      operationId: 'metrics:update_dashboard',
      summary: 'Rename a dashboard or change the metrics it pins',
      params: idParamsSchema,
      body: metricDashboardUpdateSchema,
      response: metricDashboardSchema,
    },
    async ({ params, body, caller }) => updateMetricDashboard(ctx.db, caller, params.id, body),
  );
  api.add(
    {
      ...dashboards,
      method: 'delete',
      path: '/metrics/dashboards/{id}',
      operationId: 'metrics:delete_dashboard',
      summary: 'Delete a saved metric dashboard',
      params: idParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteMetricDashboard(ctx.db, caller, params.id);
    },
  );
}
