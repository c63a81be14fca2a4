import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import { ApiError, getJson } from '../api';
import {
  orderInvoiceSchema,
  orderSchema,
  orderTimelineSchema,
  type OrderStatus,
} from '../../domain/orders/schemas';
import { queryString } from '../sales/query-string';
import { refundSchema } from '../../domain/refunds/schemas';

export const ORDERS_PAGE_SIZE = 20;
export const REFUNDS_PAGE_SIZE = 20;
/** Refunds settle through the refund workflow: pages poll while one is pending. */
export const REFUND_POLL_MS = 1_000;

/** What the orders list is narrowed and sorted by; the same filters make its CSV export. */
export type OrderFilters = {
  status?: OrderStatus;
  query?: string;
  productId?: string;
  customerId?: string;
  /** ISO instants. */
  createdAfter?: string;
  createdBefore?: string;
  sorting?: string;
};

const orderFilterQuery = (organizationId: string, filters: OrderFilters) => ({
  organization_id: organizationId,
  status: filters.status,
  query: filters.query,
  product_id: filters.productId,
  customer_id: filters.customerId,
  created_after: filters.createdAfter,
  created_before: filters.createdBefore,
  sorting: filters.sorting ?? '-created_at',
});

export const ordersQuery = (organizationId: string, page: number, filters: OrderFilters = {}) =>
  queryOptions({
    queryKey: ['orders', organizationId, page, filters],
    queryFn: () =>
      getJson(
        `/v1/orders/?${queryString({ ...orderFilterQuery(organizationId, filters), page, limit: ORDERS_PAGE_SIZE })}`,
        listResourceSchema(orderSchema),
      ),
  });

/** The CSV export of the orders these filters keep, every page; the browser downloads it. */
export const ordersExportUrl = (organizationId: string, filters: OrderFilters) =>
  `/v1/orders/export?${queryString(orderFilterQuery(organizationId, filters))}`;

export const orderTimelineQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['order', orderId, 'timeline'],
    queryFn: () => getJson(`/v1/orders/${orderId}/timeline`, orderTimelineSchema),
  });

export const orderQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['order', orderId],
    queryFn: () => getJson(`/v1/orders/${orderId}`, orderSchema),
  });

export const refundsQuery = (organizationId: string, page: number) =>
  queryOptions({
    queryKey: ['refunds', organizationId, page],
    queryFn: () =>
      getJson(
        `/v1/refunds/?organization_id=${organizationId}&page=${page}&limit=${REFUNDS_PAGE_SIZE}&sorting=-created_at`,
        listResourceSchema(refundSchema),
      ),
  });

/** An order's refunds: few, so one page holds them all. */
export const orderRefundsQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['refunds', 'order', orderId],
    queryFn: () =>
      getJson(
        `/v1/refunds/?order_id=${orderId}&limit=100&sorting=-created_at`,
        listResourceSchema(refundSchema),
      ),
  });

/** The invoice's download URL, or null while it is still being generated (404). */
async function fetchInvoiceUrl(orderId: string): Promise<string | null> {
  try {
    return (await getJson(`/v1/orders/${orderId}/invoice`, orderInvoiceSchema)).url;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 404) return null;
    throw failure;
  }
}

export const orderInvoiceQuery = (orderId: string) =>
  queryOptions({ queryKey: ['order-invoice', orderId], queryFn: () => fetchInvoiceUrl(orderId) });
