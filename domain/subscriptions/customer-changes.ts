// The customer portal's side of subscriptions: a signed-in customer reads and changes their own
// plans only (cancel at the period's end, resume, switch plans when the seller allows it, retry a
// failed renewal now). A plan of another customer or organization is not found.
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import type { CustomerSubscriptionListQuery } from '../customer-portal/schemas.js';
import { clearPendingUpdate } from './pending-updates.js';
import { lastTryOfUnpaidOrders } from '../orders/repository.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, parseSorting } from '../platform/rules.js';
import { changeSubscriptionProduct, previewProductChange, type RequestedBehavior } from './changes.js';
import { changeCustomerSubscriptionSeats } from './seat-changes.js';
import { portalPauseChange } from './portal-pause.js';
import {
  findSubscription,
  findSubscriptionWorkflowRow,
  listSubscriptionRows,
  subscriptionNow,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';
import { awaitsCustomer } from './rules.js';
import { ACTIVE_STATUSES, type ProrationPreview, type Subscription } from './schemas.js';
import {
  applySubscriptionChange,
  cancelAtPeriodEnd,
  SUBSCRIPTION_SORTS,
  uncancel,
  type Cancellation,
  type SubscriptionChangeContext,
  type SubscriptionsContext,
} from './service.js';
import { subscriptionView } from './views.js';

/** The customer's subscription; another customer's is not found. */
export async function findSubscriptionOfCustomer(
  db: Db,
  customer: CustomerCaller,
  id: string,
): Promise<SubscriptionRow> {
  const row = await findSubscription(db, id);
  if (!row || row.customerId !== customer.customerId || row.organizationId !== customer.organizationId) {
    throw new AppError('ResourceNotFound', 'Subscription not found');
  }
  return row;
}

/**
 * The least time between a buyer's own tries of a failed renewal: each failed try counts as one of
 * the dunning's tries, so trying the same card over and over would end the plan sooner.
 */
const MANUAL_RETRY_INTERVAL_MS = 60 * 60_000;

const clockTime = (date: Date) => `${date.toISOString().slice(11, 16)} UTC`;

/**
 * The portal's "Retry now" on a plan in dunning: its unpaid order is charged at once instead of at
 * the next scheduled try (our extension; a card change tries again by itself).
 */
export async function retryCustomerSubscriptionPayment(
  ctx: SubscriptionChangeContext,
  customer: CustomerCaller,
  id: string,
): Promise<Subscription> {
  const row = await findSubscriptionOfCustomer(ctx.db, customer, id);
  if (row.status !== 'past_due') {
    throw new AppError('Conflict', 'This subscription has no failed payment to try again.');
  }
  const state = await findSubscriptionWorkflowRow(ctx.db.sql, id);
  if (state && awaitsCustomer(state.unpaidLastTry, state.paymentMethodId)) {
    // Charging the card again without the buyer would only be declined again.
    throw new AppError(
      'Conflict',
      'Your bank asks you to confirm this payment: choose "Confirm your payment", or use another card.',
    );
  }
  const now = subscriptionNow(row);
  const lastAttemptAt = await lastTryOfUnpaidOrders(ctx.db.sql, id);
  const allowedAt = lastAttemptAt ? new Date(lastAttemptAt.getTime() + MANUAL_RETRY_INTERVAL_MS) : now;
  if (allowedAt > now) {
    throw new AppError(
      'TooManyRequests',
      `We tried your card at ${clockTime(lastAttemptAt!)}. Try again after ${clockTime(allowedAt)}, or use another card.`,
      { 'Retry-After': String(Math.ceil((allowedAt.getTime() - now.getTime()) / 1000)) },
    );
  }
  // Due now (in the plan's time), so the try is dated when the buyer asked for it.
  await updateSubscriptionRow(ctx.db, id, { nextAttemptAt: now });
  await ctx.workflows.signalChanged(id);
  return subscriptionView(row, ctx.publicUrl);
}

/**
 * A customer's change from the portal: cancel at the period's end (with their reason), resume,
 * or switch plans when the seller allows it, at the organization's proration default.
 */
export async function updateCustomerSubscription(
  ctx: SubscriptionChangeContext,
  customer: CustomerCaller,
  id: string,
  body:
    | { product_id: string }
    | { seats: number; proration_behavior?: RequestedBehavior | null }
    | { pending_update: null }
    | { pause_at_period_end: boolean; resumes_at?: string | null }
    | { resume: true }
    | {
        cancel_at_period_end?: boolean | null;
        cancellation_reason?: string | null;
        cancellation_comment?: string | null;
      },
): Promise<Subscription> {
  const current = await findSubscriptionOfCustomer(ctx.db, customer, id);
  if ('product_id' in body) {
    await assertCustomerMayChangePlan(ctx.db, current.organizationId);
    return changeSubscriptionProduct(ctx, current, { product_id: body.product_id });
  }
  if ('seats' in body) return changeCustomerSubscriptionSeats(ctx, current, body);
  if ('pending_update' in body) return clearPendingUpdate(ctx, current.id);
  if ('pause_at_period_end' in body || 'resume' in body) {
    return applySubscriptionChange(ctx, id, await portalPauseChange(ctx.db, current.organizationId, body));
  }
  if (body.cancel_at_period_end === true) {
    return applySubscriptionChange(
      ctx,
      id,
      cancelAtPeriodEnd({
        customer_cancellation_reason: (body.cancellation_reason ??
          null) as Cancellation['customer_cancellation_reason'],
        customer_cancellation_comment: body.cancellation_comment ?? null,
      }),
    );
  }
  if (body.cancel_at_period_end === false) return applySubscriptionChange(ctx, id, uncancel);
  return subscriptionView(current, ctx.publicUrl);
}

/** The portal's DELETE: cancels at the period's end (never ends it now, as Polar's portal did). */
export async function cancelCustomerSubscription(
  ctx: SubscriptionChangeContext,
  customer: CustomerCaller,
  id: string,
): Promise<Subscription> {
  await findSubscriptionOfCustomer(ctx.db, customer, id);
  return applySubscriptionChange(ctx, id, cancelAtPeriodEnd({}));
}

/** The customer's own subscriptions, as the portal lists them. */
export async function listSubscriptionRowsOfCustomer(
  db: Db,
  customer: CustomerCaller,
  query: CustomerSubscriptionListQuery,
) {
  const where: Prisma.SubscriptionWhereInput = {
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    startedAt: { not: null },
  };
  if (query.organization_id && ![query.organization_id].flat().includes(customer.organizationId)) {
    where.id = { in: [] };
  }
  if (query.product_id) where.productId = { in: query.product_id };
  if (query.active !== undefined) {
    where.status = query.active ? { in: [...ACTIVE_STATUSES] } : { notIn: [...ACTIVE_STATUSES] };
  }
  if (query.query) where.product = { name: { contains: query.query, mode: 'insensitive' } };
  // One organization per customer: its sort is the default order.
  const sorts: typeof SUBSCRIPTION_SORTS = {
    ...SUBSCRIPTION_SORTS,
    organization: (direction) => ({ startedAt: direction }),
  };
  const orderBy = [
    ...parseSorting<string>(query.sorting ?? ['-started_at']).map(({ field, direction }) =>
      sorts[field]!(direction),
    ),
    { id: 'asc' as const },
  ];
  return listSubscriptionRows(db, where, orderBy, pageToSkipTake(query));
}

/**
 * The portal's preview of a plan change: what the customer would pay, at the organization's
 * proration default, before they confirm; refused as the change itself would be.
 */
export async function previewCustomerSubscriptionChange(
  ctx: SubscriptionsContext,
  customer: CustomerCaller,
  id: string,
  productId: string,
): Promise<ProrationPreview> {
  const current = await findSubscriptionOfCustomer(ctx.db, customer, id);
  await assertCustomerMayChangePlan(ctx.db, current.organizationId);
  return previewProductChange(ctx, current, { product_id: productId });
}

/** A seller may keep plan changes to themselves (`allow_customer_updates`). */
async function assertCustomerMayChangePlan(db: Db, organizationId: string): Promise<void> {
  const organization = await findOrganizationById(db.sql, organizationId);
  if (!organization?.allowCustomerUpdates) {
    throw new AppError(
      'NotPermitted',
      'This seller does not let customers change their plan; contact them to change it.',
    );
  }
}
