// One plan per buyer, when the organization allows no more (a checkout's confirmation checks it).
import type { Prisma } from '../../generated/prisma/client.js';
import { findPurchasingCustomer } from '../customers/service.js';
import { AppError } from '../platform/errors.js';
import { hasSubscriptionWithStatus } from '../subscriptions/repository.js';
import { BILLABLE_STATUSES } from '../subscriptions/schemas.js';
import { hasPlanCheckoutInPayment, lockBuyer } from './repository.js';

/**
 * The organization's `allow_multiple_subscriptions=false` stops a buyer who already pays for a plan
 * (active or past due) from buying a second one; checked when they confirm, before any charge.
 */
export async function assertMayStartSubscription(
  tx: Prisma.TransactionClient,
  buyer: {
    organizationId: string;
    allowMultipleSubscriptions: boolean;
    checkoutId: string;
    customerId: string | null;
    externalId: string | null;
    email: string;
  },
): Promise<void> {
  if (buyer.allowMultipleSubscriptions) return;
  // Two checkouts of one buyer confirmed at the same instant would each see no plan yet: the
  // second waits for the first's commit, then sees it confirmed.
  await lockBuyer(tx, buyer.organizationId, buyer.email);
  const customer = await findPurchasingCustomer(tx, buyer);
  const billable =
    customer !== null &&
    (await hasSubscriptionWithStatus(tx, {
      organizationId: buyer.organizationId,
      customerId: customer.id,
      statuses: BILLABLE_STATUSES,
    }));
  if (billable) throw new AppError('AlreadyActiveSubscriptionError');
  const paying = await hasPlanCheckoutInPayment(tx, {
    organizationId: buyer.organizationId,
    email: buyer.email,
    customerId: customer?.id ?? buyer.customerId,
    exceptCheckoutId: buyer.checkoutId,
  });
  if (paying) {
    throw new AppError(
      'AlreadyActiveSubscriptionError',
      'A payment for another plan of yours is under way; you can have only one active subscription here.',
    );
  }
}
