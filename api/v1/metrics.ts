import type { Db } from '../../infra/db.js';
import { metricsLimits } from '../../domain/metrics/rules.js';
import {
  metricsLimitsSchema,
  metricsQuerySchema,
  metricsResponseSchema,
} from '../../domain/metrics/schemas.js';
import { getMetrics } from '../../domain/metrics/service.js';
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
      path: '/metrics/limits',
      operationId: 'metrics:limits',
      summary: 'The dates and the longest range per interval the metrics answer',
      response: metricsLimitsSchema,
    },
    async () => metricsLimits(),
  );
}
