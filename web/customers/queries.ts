import { queryOptions } from '@tanstack/react-query';
import {
  customerSchema,
  customerSummarySchema,
  customerTimelineSchema,
} from '../../domain/customers/schemas';
import { customerStateSchema } from '../../domain/customer-state/schemas';
import { customerPaymentMethodSchema } from '../../domain/payment-methods/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson } from '../api';
import { queryString } from '../sales/query-string';

export const CUSTOMERS_PAGE_SIZE = 20;

const customerFilterQuery = (organizationId: string, search: string, sorting: string) => ({
  organization_id: organizationId,
  query: search,
  sorting,
});

/** A page of the organization's customers; `search` matches email, name or external ID. */
export const customersQuery = (
  organizationId: string,
  search: string,
  page: number,
  sorting = '-created_at',
) =>
  queryOptions({
    queryKey: ['customers', organizationId, search, page, sorting],
    queryFn: () =>
      getJson(
        `/v1/customers/?${queryString({ ...customerFilterQuery(organizationId, search, sorting), page, limit: CUSTOMERS_PAGE_SIZE })}`,
        listResourceSchema(customerSchema),
      ),
  });

/** The CSV export of the customers the search keeps, every page; the browser downloads it. */
export const customersExportUrl = (organizationId: string, search: string, sorting: string) =>
  `/v1/customers/export?${queryString(customerFilterQuery(organizationId, search, sorting))}`;

export const customerSummaryQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['customer-summary', customerId],
    queryFn: () => getJson(`/v1/customers/${customerId}/summary`, customerSummarySchema),
  });

export const customerTimelineQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['customer-timeline', customerId],
    queryFn: () => getJson(`/v1/customers/${customerId}/timeline`, customerTimelineSchema),
  });

export const customerStateQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['customer-state', customerId],
    queryFn: () => getJson(`/v1/customers/${customerId}/state`, customerStateSchema),
  });

/** Enough for any customer's cards on one page; the count says when there are more. */
export const CUSTOMER_PAYMENT_METHODS_LIMIT = 100;

/** The customer's saved cards, the default first, as the seller's API lists them. */
export const customerPaymentMethodsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['customer-payment-methods', customerId],
    queryFn: () =>
      getJson(
        `/v1/customers/${customerId}/payment-methods?${queryString({ limit: CUSTOMER_PAYMENT_METHODS_LIMIT })}`,
        listResourceSchema(customerPaymentMethodSchema),
      ),
  });
