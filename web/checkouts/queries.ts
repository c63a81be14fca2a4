import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  checkoutClientUpdateSchema,
  checkoutConfirmSchema,
  CheckoutPublic,
  CheckoutStatus,
} from '../../domain/checkouts/schemas';
import {
  checkoutOrderSummarySchema,
  checkoutPublicConfirmedSchema,
  checkoutPublicSchema,
  checkoutSchema,
} from '../../domain/checkouts/schemas';
import { checkoutLinkSchema, checkoutLinkStatsSchema } from '../../domain/checkout-links/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson, sendJson } from '../api';
import { queryString } from '../sales/query-string';

// The hosted page talks only to the public client endpoints, authorised by the client secret.
const clientPath = (clientSecret: string) => `/v1/checkouts/client/${encodeURIComponent(clientSecret)}`;

export const clientCheckoutKey = (clientSecret: string) => ['checkout-client', clientSecret] as const;

export const clientCheckoutQuery = (clientSecret: string) =>
  queryOptions({
    queryKey: clientCheckoutKey(clientSecret),
    queryFn: () => getJson(clientPath(clientSecret), checkoutPublicSchema),
    // 404 and 410 are answers, not hiccups.
    retry: false,
  });

/**
 * The checkout as the server has it now, outside the query cache: the form reads it while a
 * payment settles, and the page must not follow those in-between states.
 */
export function readClientCheckout(clientSecret: string) {
  return getJson(clientPath(clientSecret), checkoutPublicSchema);
}

/** The order a succeeded checkout made (our extension), for its confirmation page. */
export const clientCheckoutOrderQuery = (clientSecret: string) =>
  queryOptions({
    queryKey: ['checkout-client-order', clientSecret],
    queryFn: () => getJson(`${clientPath(clientSecret)}/order`, checkoutOrderSummarySchema),
  });

/** CheckoutUpdatePublic, as the API reads it. */
export type CheckoutUpdate = z.input<typeof checkoutClientUpdateSchema>;

export function updateClientCheckout(clientSecret: string, update: CheckoutUpdate) {
  return sendJson('PATCH', clientPath(clientSecret), update, checkoutPublicSchema);
}

/** CheckoutConfirmStripe: the form's fields once more, plus the payment token when a payment is due. */
export function confirmClientCheckout(clientSecret: string, body: z.input<typeof checkoutConfirmSchema>) {
  return sendJson('POST', `${clientPath(clientSecret)}/confirm`, body, checkoutPublicConfirmedSchema);
}

export const CHECKOUTS_PAGE_SIZE = 20;

/** What the checkouts list is narrowed and sorted by; the same filters make its CSV export. */
export type CheckoutFilters = {
  status?: CheckoutStatus;
  query?: string;
  productId?: string;
  checkoutLinkId?: string;
  sorting?: string;
};

const checkoutFilterQuery = (organizationId: string, filters: CheckoutFilters) => ({
  organization_id: organizationId,
  status: filters.status,
  query: filters.query,
  product_id: filters.productId,
  checkout_link_id: filters.checkoutLinkId,
  sorting: filters.sorting ?? '-created_at',
});

export const checkoutsQuery = (organizationId: string, page: number, filters: CheckoutFilters = {}) =>
  queryOptions({
    queryKey: ['checkouts', organizationId, page, filters],
    queryFn: () =>
      getJson(
        `/v1/checkouts/?${queryString({ ...checkoutFilterQuery(organizationId, filters), page, limit: CHECKOUTS_PAGE_SIZE })}`,
        listResourceSchema(checkoutSchema),
      ),
  });

/** The CSV export of the checkouts these filters keep, every page; the browser downloads it. */
export const checkoutsExportUrl = (organizationId: string, filters: CheckoutFilters) =>
  `/v1/checkouts/export?${queryString(checkoutFilterQuery(organizationId, filters))}`;

export const checkoutLinkQuery = (linkId: string) =>
  queryOptions({
    queryKey: ['checkout-link', linkId],
    queryFn: () => getJson(`/v1/checkout-links/${linkId}`, checkoutLinkSchema),
  });

export const checkoutLinkStatsQuery = (linkId: string) =>
  queryOptions({
    queryKey: ['checkout-link', linkId, 'stats'],
    queryFn: () => getJson(`/v1/checkout-links/${linkId}/stats`, checkoutLinkStatsSchema),
  });

/**
 * A card usually answers within a second or two. The form waits that long after confirming, so a
 * decline is shown on the form itself; a slower payment goes on to the confirmation page, which
 * says it is processing and keeps waiting.
 */
const QUICK_OUTCOME_MS = 6_000;
const QUICK_OUTCOME_POLL_MS = 400;

export async function awaitQuickOutcome(
  clientSecret: string,
  confirmed: CheckoutPublic,
): Promise<CheckoutPublic> {
  const deadline = Date.now() + QUICK_OUTCOME_MS;
  let current = confirmed;
  while (
    current.status === 'confirmed' &&
    current.payment_processor_metadata.intent_status !== 'requires_action' &&
    Date.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, QUICK_OUTCOME_POLL_MS));
    try {
      current = await readClientCheckout(clientSecret);
    } catch {
      // The confirmation page reads it again and shows what went wrong.
      return current;
    }
  }
  return current;
}
