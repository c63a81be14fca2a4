import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  customerBenefitGrantSchema,
  customerCustomerMeterSchema,
  customerOrderSchema,
  customerOrganizationSchema,
  customerPortalCustomerSchema,
  customerSubscriptionSchema,
  downloadableSchema,
  type CustomerSubscription,
  type CustomerSubscriptionUpdate,
} from '../../domain/customer-portal/schemas';
import { licenseKeySchema, licenseKeyWithActivationsSchema } from '../../domain/license-keys/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { prorationPreviewSchema } from '../../domain/subscriptions/schemas';
import { portalCall, publicPortalCall, retryServerErrorsOnce } from './api';

/** The API's largest page: a buyer has far fewer subscriptions, keys or files than that. */
const PAGE_LIMIT = 100;

/** Everything of one seller's portal; the signed-in buyer's data below `portalCustomerKey`. */
export const portalKey = (slug: string) => ['portal', slug] as const;
/** Dropped whenever the buyer signs in or out: none of it may show to the next one. */
export const portalCustomerKey = (slug: string) => ['portal', slug, 'customer'] as const;

export const portalOrganizationQuery = (slug: string) =>
  queryOptions({
    queryKey: [...portalKey(slug), 'organization'],
    queryFn: () =>
      publicPortalCall('GET', `/organizations/${encodeURIComponent(slug)}`, customerOrganizationSchema),
    retry: retryServerErrorsOnce,
    staleTime: 5 * 60_000,
  });

function customerQuery<S extends z.ZodType>(slug: string, key: readonly unknown[], path: string, schema: S) {
  return queryOptions({
    queryKey: [...portalCustomerKey(slug), ...key],
    queryFn: () => portalCall(slug, 'GET', path, schema),
    retry: retryServerErrorsOnce,
  });
}

export const portalMeQuery = (slug: string) =>
  customerQuery(slug, ['me'], '/customers/me', customerPortalCustomerSchema);

export const portalSubscriptionsQuery = (slug: string) =>
  customerQuery(
    slug,
    ['subscriptions'],
    `/subscriptions/?limit=${PAGE_LIMIT}&sorting=-started_at`,
    listResourceSchema(customerSubscriptionSchema),
  );

export const portalOrdersQuery = (slug: string) =>
  customerQuery(
    slug,
    ['orders'],
    `/orders/?limit=${PAGE_LIMIT}&sorting=-created_at`,
    listResourceSchema(customerOrderSchema),
  );

export const portalLicenseKeysQuery = (slug: string) =>
  customerQuery(
    slug,
    ['license-keys'],
    `/license-keys/?limit=${PAGE_LIMIT}`,
    listResourceSchema(licenseKeySchema),
  );

export const portalLicenseKeyQuery = (slug: string, id: string) =>
  customerQuery(slug, ['license-keys', id], `/license-keys/${id}`, licenseKeyWithActivationsSchema);

/** Download links are signed for 10 minutes: the list is fetched again before they run out. */
const DOWNLOAD_LINKS_REFRESH_MS = 5 * 60_000;

export const portalDownloadablesQuery = (slug: string) => ({
  ...customerQuery(
    slug,
    ['downloadables'],
    `/downloadables/?limit=${PAGE_LIMIT}`,
    listResourceSchema(downloadableSchema),
  ),
  refetchInterval: DOWNLOAD_LINKS_REFRESH_MS,
});

export const portalMetersQuery = (slug: string) =>
  customerQuery(
    slug,
    ['meters'],
    `/meters/?limit=${PAGE_LIMIT}&sorting=meter_name`,
    listResourceSchema(customerCustomerMeterSchema),
  );

export const portalBenefitGrantsQuery = (slug: string) =>
  customerQuery(
    slug,
    ['benefit-grants'],
    `/benefit-grants/?limit=${PAGE_LIMIT}&sorting=-granted_at`,
    listResourceSchema(customerBenefitGrantSchema),
  );

/** What switching to `productId` would bill, at the seller's proration default. */
export const portalProrationPreviewQuery = (slug: string, subscriptionId: string, productId: string) =>
  queryOptions({
    queryKey: [...portalCustomerKey(slug), 'subscriptions', subscriptionId, 'preview', productId],
    queryFn: () =>
      portalCall(slug, 'POST', `/subscriptions/${subscriptionId}/proration-preview`, prorationPreviewSchema, {
        product_id: productId,
      }),
    retry: retryServerErrorsOnce,
    // The amounts depend on the time left in the period; a preview is read once, then confirmed.
    staleTime: 60_000,
  });

/**
 * PATCHes a subscription (cancel, keep, change plan), puts the answer in the list at once and
 * refreshes what a change touches: the list, the orders (a plan change may bill now), the grants.
 */
export function usePortalSubscriptionChange(slug: string) {
  const queryClient = useQueryClient();
  return async (
    subscriptionId: string,
    change: CustomerSubscriptionUpdate,
  ): Promise<CustomerSubscription> => {
    const updated = await portalCall(
      slug,
      'PATCH',
      `/subscriptions/${subscriptionId}`,
      customerSubscriptionSchema,
      change,
    );
    queryClient.setQueryData(portalSubscriptionsQuery(slug).queryKey, (list) =>
      list ? { ...list, items: list.items.map((item) => (item.id === updated.id ? updated : item)) } : list,
    );
    await Promise.all(
      ['subscriptions', 'orders', 'benefit-grants', 'license-keys', 'downloadables', 'meters'].map((key) =>
        queryClient.invalidateQueries({ queryKey: [...portalCustomerKey(slug), key] }),
      ),
    );
    return updated;
  };
}
