import { queryOptions } from '@tanstack/react-query';
import { benefitSchema } from '../../domain/benefits/schemas';
import { checkoutLinkSchema } from '../../domain/checkout-links/schemas';
import { customFieldSchema } from '../../domain/custom-fields/schemas';
import { discountSchema } from '../../domain/discounts/schemas';
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

export const benefitQuery = (benefitId: string) =>
  queryOptions({
    queryKey: ['benefit', benefitId],
    queryFn: () => getJson(`/v1/benefits/${benefitId}`, benefitSchema),
  });

export const metersQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['meters', organizationId],
    queryFn: () =>
      getJson(`/v1/meters/?organization_id=${organizationId}&${ALL}`, listResourceSchema(meterSchema)),
  });

export const meterQuery = (meterId: string) =>
  queryOptions({
    queryKey: ['meter', meterId],
    queryFn: () => getJson(`/v1/meters/${meterId}`, meterSchema),
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

export const discountsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['discounts', organizationId],
    queryFn: () =>
      getJson(`/v1/discounts/?organization_id=${organizationId}&${ALL}`, listResourceSchema(discountSchema)),
  });

export const checkoutLinksQuery = (organizationId: string) =>
  queryOptions({
    queryKey: ['checkout-links', organizationId],
    queryFn: () =>
      getJson(
        `/v1/checkout-links/?organization_id=${organizationId}&${ALL}`,
        listResourceSchema(checkoutLinkSchema),
      ),
  });
