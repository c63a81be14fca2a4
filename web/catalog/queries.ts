import { queryOptions } from '@tanstack/react-query';
import { benefitSchema } from '../../domain/benefits/schemas';
import { customFieldSchema } from '../../domain/custom-fields/schemas';
import { meterSchema } from '../../domain/meters/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { productSchema } from '../../domain/products/schemas';
import { getJson } from '../api';

/** Lists and pickers show every item: an organization's catalog stays well under the API's page limit of 100. */
const ALL = 'limit=100';

export const productsQuery = (organizationId: string, isArchived: boolean) =>
  queryOptions({
    queryKey: ['products', organizationId, isArchived],
    queryFn: () =>
      getJson(
        `/v1/products/?organization_id=${organizationId}&${ALL}${isArchived ? '' : '&is_archived=false'}&sorting=-created_at`,
        listResourceSchema(productSchema),
      ),
  });

export const benefitsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['benefits', organizationId],
    queryFn: () =>
      getJson(`/v1/benefits/?organization_id=${organizationId}&${ALL}`, listResourceSchema(benefitSchema)),
  });

export const metersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['meters', organizationId],
    queryFn: () =>
      getJson(`/v1/meters/?organization_id=${organizationId}&${ALL}`, listResourceSchema(meterSchema)),
  });

export const customFieldsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['custom-fields', organizationId],
    queryFn: () =>
      getJson(
        `/v1/custom-fields/?organization_id=${organizationId}&${ALL}`,
        listResourceSchema(customFieldSchema),
      ),
  });
