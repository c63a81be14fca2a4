import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { checkoutClientUpdateSchema, checkoutConfirmSchema } from '../../domain/checkouts/schemas';
import {
  checkoutPublicConfirmedSchema,
  checkoutPublicSchema,
  checkoutSchema,
} from '../../domain/checkouts/schemas';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson, sendJson } from '../api';

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

export const checkoutsQuery = (organizationId: string, page: number) =>
  queryOptions({
    queryKey: ['checkouts', organizationId, page],
    queryFn: () =>
      getJson(
        `/v1/checkouts/?organization_id=${organizationId}&page=${page}&limit=${CHECKOUTS_PAGE_SIZE}&sorting=-created_at`,
        listResourceSchema(checkoutSchema),
      ),
  });
