import { keepPreviousData, queryOptions, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  customerBenefitGrantSchema,
  customerCustomerMeterSchema,
  customerLicenseKeySchema,
  customerOrderSchema,
  customerOrganizationSchema,
  customerPortalCustomerSchema,
  customerSubscriptionSchema,
  downloadableSchema,
  type CustomerSubscription,
  type CustomerSubscriptionUpdate,
} from '../../domain/customer-portal/schemas';
import { customerSessionIntrospectionSchema } from '../../domain/customer-sessions/schemas';
import { licenseKeyWithActivationsSchema } from '../../domain/license-keys/schemas';
import { paymentMethodSchema } from '../../domain/payment-methods/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import {
  BILLABLE_STATUSES,
  prorationPreviewSchema,
  upcomingInvoiceSchema,
} from '../../domain/subscriptions/schemas';
import { portalCall, publicPortalCall, retryServerErrorsOnce } from './api';

/** One page of a portal list: a screenful on a phone; the pager shows the rest. */
export const PORTAL_PAGE_SIZE = 20;
/** The API's largest page, for lookups that must see every item (a benefit's name by its id). */
const LOOKUP_LIMIT = 100;

/** Everything of one seller's portal; the signed-in buyer's data below `portalCustomerKey`. */
export const portalKey = (slug: string) => ['portal', slug] as const;
/** Dropped whenever the buyer signs in or out: none of it may show to the next one. */
export const portalCustomerKey = (slug: string) => ['portal', slug, 'customer'] as const;
/** Every query of one resource (its pages, its items): what a change of it refreshes. */
export const portalResourceKey = (slug: string, resource: PortalResource) =>
  [...portalCustomerKey(slug), resource] as const;
/** Every page of one resource's list. */
export const portalListKey = (slug: string, resource: PortalResource) =>
  [...portalResourceKey(slug, resource), 'list'] as const;

type PortalResource =
  | 'subscriptions'
  | 'orders'
  | 'license-keys'
  | 'downloadables'
  | 'meters'
  | 'benefit-grants'
  | 'payment-methods'
  | 'claimed-seats';

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

/**
 * One page of a list. The page shown stays on screen while the next one loads, so the list (and
 * the focus the pager gives it) does not vanish in between.
 */
function customerListQuery<T extends z.ZodType>(
  slug: string,
  resource: PortalResource,
  page: number,
  path: string,
  item: T,
  sorting?: string,
) {
  const query = new URLSearchParams({ page: String(page), limit: String(PORTAL_PAGE_SIZE) });
  if (sorting) query.set('sorting', sorting);
  return queryOptions({
    queryKey: [...portalListKey(slug, resource), page],
    queryFn: () => portalCall(slug, 'GET', `${path}?${query.toString()}`, listResourceSchema(item)),
    retry: retryServerErrorsOnce,
    placeholderData: keepPreviousData,
  });
}

/** The signed-in session: its expiry and the seller's page to go back to, when their app named one. */
export const portalSessionQuery = (slug: string) =>
  customerQuery(slug, ['session'], '/customer-session/introspect', customerSessionIntrospectionSchema);

export const portalMeQuery = (slug: string) =>
  customerQuery(slug, ['me'], '/customers/me', customerPortalCustomerSchema);

/** Plans others bought that give this customer a seat: few per person, so one page of the most. */
export const portalClaimedSeatsQuery = (slug: string) =>
  queryOptions({
    queryKey: [...portalListKey(slug, 'claimed-seats'), 1],
    queryFn: () =>
      portalCall(
        slug,
        'GET',
        '/seats/subscriptions?page=1&limit=100',
        listResourceSchema(customerSubscriptionSchema),
      ),
    retry: retryServerErrorsOnce,
  });

/** A failed renewal is charged again by the subscription's workflow (retry, new card): its list follows. */
const PAST_DUE_REFRESH_MS = 5_000;

export const portalSubscriptionsQuery = (slug: string, page: number) =>
  queryOptions({
    ...customerListQuery(
      slug,
      'subscriptions',
      page,
      '/subscriptions/',
      customerSubscriptionSchema,
      '-started_at',
    ),
    refetchInterval: (query) =>
      query.state.data?.items.some((subscription) => subscription.status === 'past_due')
        ? PAST_DUE_REFRESH_MS
        : false,
  });

/**
 * The buyer's plans that renew (every one on a page: a buyer has a handful), for the usage page;
 * refreshed with the list whenever a plan changes.
 */
export const portalRenewingSubscriptionsQuery = (slug: string) =>
  queryOptions({
    ...customerQuery(
      slug,
      ['subscriptions', 'list', 'renewing'],
      `/subscriptions/?limit=${LOOKUP_LIMIT}&sorting=-started_at`,
      listResourceSchema(customerSubscriptionSchema),
    ),
    select: (list) =>
      list.items.filter(
        (subscription) => subscription.ended_at === null && BILLABLE_STATUSES.includes(subscription.status),
      ),
  });

/** What the plan's next renewal will bill, estimated by the renewal's own pricing (our extension). */
export const portalUpcomingInvoiceQuery = (slug: string, subscriptionId: string) =>
  customerQuery(
    slug,
    ['subscriptions', subscriptionId, 'upcoming-invoice'],
    `/subscriptions/${subscriptionId}/upcoming-invoice`,
    upcomingInvoiceSchema,
  );

export const portalOrdersQuery = (slug: string, page: number) =>
  customerListQuery(slug, 'orders', page, '/orders/', customerOrderSchema, '-created_at');

export const portalOrderQuery = (slug: string, id: string) =>
  customerQuery(slug, ['orders', id], `/orders/${id}`, customerOrderSchema);

export const portalLicenseKeysQuery = (slug: string, page: number) =>
  customerListQuery(slug, 'license-keys', page, '/license-keys/', customerLicenseKeySchema);

export const portalLicenseKeyQuery = (slug: string, id: string) =>
  customerQuery(slug, ['license-keys', id], `/license-keys/${id}`, licenseKeyWithActivationsSchema);

/** Download links are signed for 10 minutes: the list is fetched again before they run out. */
const DOWNLOAD_LINKS_REFRESH_MS = 5 * 60_000;

export const portalDownloadablesQuery = (slug: string, page: number) =>
  queryOptions({
    ...customerListQuery(slug, 'downloadables', page, '/downloadables/', downloadableSchema),
    refetchInterval: DOWNLOAD_LINKS_REFRESH_MS,
  });

export const portalMetersQuery = (slug: string, page: number) =>
  customerListQuery(slug, 'meters', page, '/meters/', customerCustomerMeterSchema, 'meter_name');

export const portalBenefitGrantsQuery = (slug: string, page: number) =>
  customerListQuery(
    slug,
    'benefit-grants',
    page,
    '/benefit-grants/',
    customerBenefitGrantSchema,
    '-granted_at',
  );

/**
 * The names of the buyer's benefits by id, for the pages that head a key or a file with the
 * benefit it comes from; whichever page of those lists is shown, its benefit is in here.
 */
export const portalBenefitNamesQuery = (slug: string) =>
  queryOptions({
    ...customerQuery(
      slug,
      ['benefit-grants', 'names'],
      `/benefit-grants/?limit=${LOOKUP_LIMIT}&sorting=-granted_at`,
      listResourceSchema(customerBenefitGrantSchema),
    ),
    select: (list) => new Map(list.items.map((grant) => [grant.benefit_id, grant.benefit.description])),
  });

/** The buyer's saved cards, the default first. */
export const portalPaymentMethodsQuery = (slug: string, page: number) =>
  customerListQuery(slug, 'payment-methods', page, '/customers/me/payment-methods', paymentMethodSchema);

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
    showPortalSubscription(queryClient, slug, updated);
    await refreshAfterSubscriptionChange(queryClient, slug);
    return updated;
  };
}

type SubscriptionList = { items: CustomerSubscription[] };

/** Puts a subscription the API answered with into whichever page of the list holds it. */
export function showPortalSubscription(
  queryClient: QueryClient,
  slug: string,
  updated: CustomerSubscription,
) {
  queryClient.setQueriesData<SubscriptionList>({ queryKey: portalListKey(slug, 'subscriptions') }, (list) =>
    list ? { ...list, items: list.items.map((item) => (item.id === updated.id ? updated : item)) } : list,
  );
}

/** What a plan change or a payment touches: the plans, the orders (a charge), the grants and what they give. */
export function refreshAfterSubscriptionChange(queryClient: QueryClient, slug: string) {
  const touched: PortalResource[] = [
    'subscriptions',
    'orders',
    'benefit-grants',
    'license-keys',
    'downloadables',
    'meters',
  ];
  return Promise.all(
    touched.map((resource) => queryClient.invalidateQueries({ queryKey: portalResourceKey(slug, resource) })),
  );
}
