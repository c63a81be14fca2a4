import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { metricDashboardSchema, metricsResponseSchema } from '../../domain/metrics/schemas';
import { getJson } from '../api';
import type { MetricsWindow } from './format';

/**
 * One organization's metrics over one window of its days (`timeZone`, the organization's): the
 * Overview asks for its range and, as a second call with the dates moved back, the one before.
 */
export const metricsQuery = (organizationId: string, window: MetricsWindow, timeZone: string) =>
  queryOptions({
    queryKey: ['metrics', organizationId, window.start_date, window.end_date, window.interval, timeZone],
    queryFn: () => {
      const query = new URLSearchParams({ ...window, timezone: timeZone, organization_id: organizationId });
      return getJson(`/v1/metrics/?${query.toString()}`, metricsResponseSchema);
    },
  });

/**
 * Whether the organization ever had an order: a new seller sees how to get the first one instead
 * of empty charts. Under the orders' key, which a new order refreshes.
 */
export const hasOrdersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['orders', organizationId, 'any'],
    queryFn: async () => {
      const orders = await getJson(
        `/v1/orders/?organization_id=${organizationId}&limit=1`,
        z.object({ pagination: z.object({ total_count: z.number() }) }),
      );
      return orders.pagination.total_count > 0;
    },
  });

/** The organization's saved metric dashboards (docs/metrics.md, "Dashboards"). */
export const metricDashboardsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['metric-dashboards', organizationId],
    queryFn: () =>
      getJson(`/v1/metrics/dashboards?organization_id=${organizationId}`, z.array(metricDashboardSchema)),
  });
