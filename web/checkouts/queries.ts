import { queryOptions } from '@tanstack/react-query';
import { listResourceSchema } from '../../domain/platform/schemas';
import { getJson, sendJson } from '../api';
import {
  checkoutPublicConfirmedSchema,
  checkoutPublicSchema,
  checkoutSchema,
} from '../../domain/checkouts/schemas';

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

/** CheckoutUpdatePublic: only the fields the page changes. */
export type CheckoutUpdate = {
  product_id?: string;
  amount?: number | null;
  customer_email?: string | null;
  customer_name?: string | null;
  customer_billing_address?: {
    country: string;
    line1: string | null;
    line2: string | null;
    postal_code: string | null;
    city: string | null;
    state: string | null;
  } | null;
  discount_code?: string | null;
  custom_field_data?: Record<string, string | number | boolean | null>;
};

export function updateClientCheckout(clientSecret: string, update: CheckoutUpdate) {
  return sendJson('PATCH', clientPath(clientSecret), update, checkoutPublicSchema);
}

/** CheckoutConfirmStripe: the form's fields once more, plus the payment token when a payment is due. */
export function confirmClientCheckout(
  clientSecret: string,
  body: CheckoutUpdate & { confirmation_token_id: string | null },
) {
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
