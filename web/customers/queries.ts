import { queryOptions } from '@tanstack/react-query';
import { customerSchema, customerStateSchema } from '../../domain/customers/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson } from '../api';

export const CUSTOMERS_PAGE_SIZE = 20;

/** A page of the organization's customers; `search` matches email, name or external ID. */
export const customersQuery = (organizationId: string, search: string, page: number) =>
  queryOptions({
    queryKey: ['customers', organizationId, search, page],
    queryFn: () => {
      const query = new URLSearchParams({
        organization_id: organizationId,
        page: String(page),
        limit: String(CUSTOMERS_PAGE_SIZE),
      });
      if (search) query.set('query', search);
      return getJson(`/v1/customers/?${query.toString()}`, listResourceSchema(customerSchema));
    },
  });

export const customerStateQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['customer-state', customerId],
    queryFn: () => getJson(`/v1/customers/${customerId}/state`, customerStateSchema),
  });
