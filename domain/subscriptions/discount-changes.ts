// A seller gives a subscription another discount, or none (PATCH {discount_id}), from its next
// period on: the period being billed keeps the discount it was billed with.
import { transaction } from '../../infra/db.js';
import { findDiscountOfOrganization, redeemDiscount } from '../discounts/repository.js';
import { discountApplicability } from '../discounts/rules.js';
import type { DiscountDuration, DiscountType } from '../discounts/schemas.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { recordSubscriptionChange } from './change-events.js';
import { assertCaughtUpWithClock, isChangeable, type PlanChangeContext } from './changes.js';
import {
  findSubscription,
  lockSubscription,
  subscriptionNow,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';
import type { Subscription } from './schemas.js';
import { subscriptionView } from './views.js';

/**
 * A seller gives the subscription another discount (or none) from its next period on: the
 * discount must apply to its product and be redeemable (one redemption is taken), and its
 * duration counts from that period.
 */
export async function changeSubscriptionDiscount(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  discountId: string | null,
): Promise<Subscription> {
  const { id } = current;
  if (!isChangeable(current)) throw new AppError('AlreadyCanceledSubscription');
  const refuse = (message: string): never => {
    throw new InvalidFieldError(['body', 'discount_id'], message);
  };
  if (discountId !== null && discountId === current.discountId) refuse('This discount is already applied.');
  const after = await transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, id);
    const row = (await findSubscription(tx.prisma, id))!;
    if (!isChangeable(row)) throw new AppError('AlreadyCanceledSubscription');
    assertCaughtUpWithClock(row);
    const at = subscriptionNow(row);
    if (discountId !== null) {
      const discount = await findDiscountOfOrganization(tx.prisma, row.organizationId, discountId);
      if (!discount) return refuse('Discount not found.');
      const applicability = discountApplicability(
        {
          type: discount.type as DiscountType,
          currency: discount.currency,
          duration: discount.duration as DiscountDuration,
          startsAt: discount.startsAt,
          endsAt: discount.endsAt,
          maxRedemptions: discount.maxRedemptions,
          productIds: discount.products.map(({ productId }) => productId),
        },
        {
          productId: row.productId,
          currency: row.currency,
          isRecurring: true,
          now: at,
          redemptionsCount: discount.redemptionsCount,
        },
      );
      if (!applicability.isApplicable) refuse(applicability.message);
      if (!(await redeemDiscount(tx.prisma, discount.id))) refuse('This discount has been fully redeemed.');
    }
    const updated = await updateSubscriptionRow(tx.prisma, id, {
      discountId,
      // Effective from the next period, whose renewal prices it: this one was billed (and its
      // `amount` and ledger stay) with the discount it had.
      discountFirstPeriodStart: discountId ? row.currentPeriodEnd : null,
    });
    await recordSubscriptionChange(ctx, tx, row, updated, at);
    return updated;
  });
  await ctx.workflows.signalChanged(id);
  return subscriptionView(after, ctx.publicUrl);
}
