// What a change of a subscription records in its transaction: its webhook events, and the marks
// and state change of the customer whose holdings it moved.
import type { Tx } from '../../infra/db.js';
import { recordCustomerStateChanged } from '../customer-state/service.js';
import { findLiveCustomer, markBenefitGrantsStaleSql } from '../customers/repository.js';
import { revokeSeatsOfSubscription } from '../customer-seats/repository.js';
import { recordEvents } from '../webhook-outbox/repository.js';
import type { WebhookEventType } from '../webhook-outbox/schemas.js';
import type { SubscriptionRow } from './repository.js';
import { isPaused } from './pause.js';
import { ACTIVE_STATUSES, type SubscriptionStatus } from './schemas.js';
import { subscriptionView } from './views.js';
import { isEnded } from './workflow-state.js';

/**
 * `subscription.updated`, then as the change calls for `.cycled` (a new period), `.past_due` (dunning
 * started: once, when `past_due_at` is set), `.active` (back in the active group),
 * `.canceled` (newly set to cancel), `.uncanceled`, `.revoked` (left the billable group), `.paused`
 * and `.resumed` (pause.ts), and
 * `customer.state_changed` when what the customer holds changed (Polar's order of events).
 */
export async function recordSubscriptionChange(
  ctx: { publicUrl: string },
  tx: Tx,
  before: Pick<
    SubscriptionRow,
    'status' | 'canceledAt' | 'cancelAtPeriodEnd' | 'endedAt' | 'amount' | 'productId' | 'pastDueAt'
  >,
  after: SubscriptionRow,
  at: Date,
  /** A new period began (a renewal): `subscription.cycled` follows `.updated`. */
  change: { cycled?: boolean } = {},
): Promise<void> {
  const data = subscriptionView(after, ctx.publicUrl);
  const types: WebhookEventType[] = ['subscription.updated'];
  if (change.cycled) types.push('subscription.cycled');
  if (after.pastDueAt && !before.pastDueAt) types.push('subscription.past_due');
  const wasActive = ACTIVE_STATUSES.includes(before.status as SubscriptionStatus);
  const isActive = ACTIVE_STATUSES.includes(after.status as SubscriptionStatus);
  // Resuming is `.resumed`, not a first activation (Polar's rule).
  if (isActive && !wasActive && !isPaused(before)) types.push('subscription.active');
  if (after.canceledAt && !before.canceledAt) types.push('subscription.canceled');
  if (!after.cancelAtPeriodEnd && before.cancelAtPeriodEnd && !after.endedAt)
    types.push('subscription.uncanceled');
  // A paused plan bills nothing (`isEnded`) but has not ended: pausing revokes nothing, a paused
  // plan revoked is.
  if (isEnded(after) && !isPaused(after) && (!isEnded(before) || isPaused(before)))
    types.push('subscription.revoked');
  if (isPaused(after) && !isPaused(before)) types.push('subscription.paused');
  if (isPaused(before) && isActive) types.push('subscription.resumed');
  await recordEvents(
    tx.sql,
    types.map((type) => ({ organizationId: after.organizationId, type, data, at })),
  );
  if (types.includes('subscription.revoked')) await revokeSeatsOfSubscription(tx, after.id, at);
  // A plan holds its product's benefits until it ends (past_due keeps them through dunning).
  if (
    isEnded(before) !== isEnded(after) ||
    before.productId !== after.productId ||
    isPaused(before) !== isPaused(after)
  ) {
    await markBenefitGrantsStaleSql(tx.sql, [after.customerId]);
  }
  if (
    wasActive !== isActive ||
    isEnded(after) !== isEnded(before) ||
    after.amount !== before.amount ||
    isPaused(before) !== isPaused(after)
  ) {
    const customer = await findLiveCustomer(tx.prisma, after.customerId);
    if (customer) await recordCustomerStateChanged(tx.prisma, customer);
  }
}
