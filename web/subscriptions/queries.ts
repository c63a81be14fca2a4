import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { orderSchema } from '../../domain/orders/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import {
  prorationPreviewSchema,
  subscriptionPaymentAttemptListSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
  type Subscription,
} from '../../domain/subscriptions/schemas';
import { getJson, sendJson } from '../api';

export const SUBSCRIPTIONS_PAGE_SIZE = 20;
/** Orders of a plan are charged by its workflow: pages poll while one is still pending. */
export const SUBSCRIPTION_POLL_MS = 1_000;

/** `active`: Polar's groups (true: trialing and active; false: every other status). */
export type SubscriptionFilter = { page: number; active?: boolean };

export const subscriptionsQuery = (organizationId: string, { page, active }: SubscriptionFilter) =>
  queryOptions({
    queryKey: ['subscriptions', organizationId, page, active ?? null],
    queryFn: () => {
      const query = new URLSearchParams({
        organization_id: organizationId,
        page: String(page),
        limit: String(SUBSCRIPTIONS_PAGE_SIZE),
        sorting: '-started_at',
      });
      if (active !== undefined) query.set('active', String(active));
      return getJson(`/v1/subscriptions/?${query.toString()}`, listResourceSchema(subscriptionSchema));
    },
  });

/** A customer's plans: a handful, so one page holds them all. */
export const customerSubscriptionsQuery = (customerId: string) =>
  queryOptions({
    queryKey: ['subscriptions', 'customer', customerId],
    queryFn: () =>
      getJson(
        `/v1/subscriptions/?customer_id=${customerId}&limit=100&sorting=-started_at`,
        listResourceSchema(subscriptionSchema),
      ),
  });

export const subscriptionQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: ['subscription', subscriptionId],
    queryFn: () => getJson(`/v1/subscriptions/${subscriptionId}`, subscriptionSchema),
  });

/**
 * What the next renewal will bill, estimated by the renewal's own pricing (our extension). Read
 * again whenever the subscription changes (a renewal, a plan or discount change: its
 * `modified_at`), and with every `['subscriptions']` refresh (a test clock's advance).
 */
export const subscriptionUpcomingInvoiceQuery = (subscription: Pick<Subscription, 'id' | 'modified_at'>) =>
  queryOptions({
    queryKey: ['subscriptions', 'upcoming-invoice', subscription.id, subscription.modified_at],
    queryFn: () => getJson(`/v1/subscriptions/${subscription.id}/upcoming-invoice`, upcomingInvoiceSchema),
    placeholderData: keepPreviousData,
  });

/** The orders of one subscription, newest first: its first payment, renewals and plan changes. */
export const subscriptionOrdersQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: ['orders', 'subscription', subscriptionId],
    queryFn: () =>
      getJson(
        `/v1/orders/?subscription_id=${subscriptionId}&limit=100&sorting=-created_at`,
        listResourceSchema(orderSchema),
      ),
  });

/** Every try to collect the plan's orders (our extension), newest first, and the next one's date. */
export const subscriptionPaymentAttemptsQuery = (subscriptionId: string) =>
  queryOptions({
    queryKey: ['orders', 'subscription', subscriptionId, 'payment-attempts'],
    queryFn: () =>
      getJson(
        `/v1/subscriptions/${subscriptionId}/payment-attempts?limit=100`,
        subscriptionPaymentAttemptListSchema,
      ),
  });

/** A customer's latest orders (the test clock page shows renewals as they appear). */
export const customerOrdersQuery = (customerId: string, limit = 5) =>
  queryOptions({
    queryKey: ['orders', 'customer', customerId, limit],
    queryFn: () =>
      getJson(
        `/v1/orders/?customer_id=${customerId}&limit=${limit}&sorting=-created_at`,
        listResourceSchema(orderSchema),
      ),
  });

export type PlanChange = {
  product_id: string;
  proration_behavior: 'invoice' | 'prorate' | 'next_period' | 'reset';
};

/** What a plan change would bill, without making it (our extension of Polar's API). */
export function previewPlanChange(subscriptionId: string, change: PlanChange) {
  return sendJson(
    'POST',
    `/v1/subscriptions/${subscriptionId}/proration-preview`,
    change,
    prorationPreviewSchema,
  );
}
