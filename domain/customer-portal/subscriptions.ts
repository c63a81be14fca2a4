// The signed-in customer's subscriptions (Polar's portal `subscription`): read, change plan, cancel,
// resume, retry a failed renewal. The changes themselves are subscriptions/customer-changes.ts; this
// file adds what the portal shows beside them (the seller, the payment waiting for the customer).

import { claimedSubscriptionIdsOf } from '../customer-seats/repository.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import type { PageQuery } from '../platform/schemas.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import {
  cancelCustomerSubscription,
  findSubscriptionOfCustomer,
  listSubscriptionRowsOfCustomer,
  retryCustomerSubscriptionPayment,
  updateCustomerSubscription,
} from '../subscriptions/customer-changes.js';
import { paymentConfirmationsOf } from '../subscriptions/customer-payments.js';
import { listSubscriptionRows } from '../subscriptions/repository.js';
import type { Subscription } from '../subscriptions/schemas.js';
import { subscriptionView } from '../subscriptions/views.js';
import { organizationWire, type PortalContext } from './context.js';
import {
  customerSubscriptionSchema,
  type CustomerSubscription,
  type CustomerSubscriptionListQuery,
  type CustomerSubscriptionUpdate,
} from './schemas.js';

async function customerSubscriptionViews(
  ctx: PortalContext,
  customer: CustomerCaller,
  views: Subscription[],
): Promise<CustomerSubscription[]> {
  const organization = await organizationWire(ctx.db, customer.organizationId);
  const confirmations = await paymentConfirmationsOf(
    ctx.db,
    views.filter((view) => view.status === 'past_due').map((view) => view.id),
  );
  return views.map((view) => {
    const waiting = confirmations.get(view.id);
    return customerSubscriptionSchema.parse({
      ...view,
      product: { ...view.product, organization },
      payment_confirmation: waiting
        ? { order_id: waiting.orderId, payment_method_id: waiting.savedCardId }
        : null,
    });
  });
}

export async function listPortalSubscriptions(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerSubscriptionListQuery,
) {
  const [rows, total] = await listSubscriptionRowsOfCustomer(ctx.db, customer, query);
  const views = rows.map((row) => subscriptionView(row, ctx.publicUrl));
  return paginated(await customerSubscriptionViews(ctx, customer, views), total, query);
}

/**
 * Subscriptions someone else bought in which the signed-in customer holds a claimed seat (Polar's
 * `list_claimed_subscriptions`): what the seat is for, never the buyer's unpaid order.
 */
export async function listClaimedSeatSubscriptions(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: PageQuery,
) {
  const ids = await claimedSubscriptionIdsOf(ctx.db, customer.customerId);
  const [rows, total] = await listSubscriptionRows(
    ctx.db,
    { organizationId: customer.organizationId, id: { in: ids } },
    [{ startedAt: 'desc' }, { id: 'asc' }],
    pageToSkipTake(query),
  );
  const organization = await organizationWire(ctx.db, customer.organizationId);
  const items = rows.map((row) => {
    const view = subscriptionView(row, ctx.publicUrl);
    return customerSubscriptionSchema.parse({
      ...view,
      product: { ...view.product, organization },
      payment_confirmation: null,
    });
  });
  return paginated(items, total, query);
}

export async function getPortalSubscription(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const row = await findSubscriptionOfCustomer(ctx.db, customer, id);
  const [view] = await customerSubscriptionViews(ctx, customer, [subscriptionView(row, ctx.publicUrl)]);
  return view!;
}

export async function updatePortalSubscription(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: CustomerSubscriptionUpdate,
) {
  const view = await updateCustomerSubscription(ctx.subscriptions, customer, id, input);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}

export async function retryPortalSubscriptionPayment(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
) {
  const view = await retryCustomerSubscriptionPayment(ctx.subscriptions, customer, id);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}

export async function cancelPortalSubscription(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const view = await cancelCustomerSubscription(ctx.subscriptions, customer, id);
  return (await customerSubscriptionViews(ctx, customer, [view]))[0]!;
}
