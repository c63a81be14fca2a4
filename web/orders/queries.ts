import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import { ApiError, getJson } from '../api';
import { orderInvoiceSchema, orderSchema } from '../../domain/orders/schemas';
import { refundSchema } from '../../domain/refunds/schemas';

export const ORDERS_PAGE_SIZE = 20;
export const REFUNDS_PAGE_SIZE = 20;
/** Refunds settle through the refund workflow: pages poll while one is pending. */
export const REFUND_POLL_MS = 1_000;

export const ordersQuery = (organizationId: string, page: number) =>
  queryOptions({
    queryKey: ['orders', organizationId, page],
    queryFn: () =>
      getJson(
        `/v1/orders/?organization_id=${organizationId}&page=${page}&limit=${ORDERS_PAGE_SIZE}&sorting=-created_at`,
        listResourceSchema(orderSchema),
      ),
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
