// What every billing step of a subscription shares (renewal, collection, the customer's own
// payment): its context, the limits of its transaction, the subscription locked for it, and what
// the orders it makes refer to.
import type { Db, Tx } from '../../infra/db.js';
import type { SubscriptionOrder, SubscriptionOrderRelations } from '../orders/service.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { lockSubscriptionForStep, type SubscriptionStepRow } from './repository.js';

export type SubscriptionBillingContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  /** Days between the tries of a failed renewal (domain/subscriptions/rules.ts). */
  retryDays: readonly number[];
};

/** Each step locks the subscription row; a burst of renewals at one instant waits its turn. */
export const STEP_TRANSACTION = { maxWait: 60_000, timeout: 60_000 } as const;

/**
 * The subscription under its lock, for a step prepared from `before` (read without the lock): its
 * own fields and unbilled proration lines as they are now, its relations as read before. A plan,
 * price or discount change that landed in between fails the step; its retry reads again.
 */
export async function lockStepRow(tx: Tx, before: SubscriptionStepRow): Promise<SubscriptionStepRow | null> {
  const locked = await lockSubscriptionForStep(tx.sql, before.id);
  if (!locked) return null;
  const { record, prices, pendingItems } = locked;
  const samePrices =
    prices.length === before.prices.length &&
    prices.every(
      (price, index) =>
        price.productPriceId === before.prices[index]!.productPriceId &&
        price.amount === before.prices[index]!.amount,
    );
  if (
    !samePrices ||
    record.productId !== before.productId ||
    record.discountId !== before.discountId ||
    record.customerId !== before.customerId
  ) {
    throw new Error(`subscription ${before.id} changed while its step was being prepared`);
  }
  return { ...before, ...record, pendingItems };
}

/** What an order of this subscription refers to, for its events. */
export const orderRelationsOf = (row: SubscriptionStepRow): SubscriptionOrderRelations => ({
  customer: row.customer,
  product: row.product,
  discount: row.discount,
  subscription: row,
});

/**
 * An order a step bills for the subscription (a renewal, a meter cycle): `bill` is what it charges;
 * the rest is the subscription's and its customer's as they are now (no name or address once the
 * customer is deleted, `billedCustomerOf`).
 */
export const subscriptionOrderOf = (
  row: SubscriptionStepRow,
  customer: Pick<SubscriptionStepRow['customer'], 'name' | 'billingAddress'> | null,
  bill: Omit<
    SubscriptionOrder,
    | 'organizationId'
    | 'subscriptionId'
    | 'customerId'
    | 'productId'
    | 'currency'
    | 'billingName'
    | 'billingAddress'
    | 'metadata'
    | 'seats'
  >,
): SubscriptionOrder => ({
  organizationId: row.organizationId,
  subscriptionId: row.id,
  customerId: row.customerId,
  productId: row.productId,
  currency: row.currency,
  seats: row.seats,
  billingName: customer?.name ?? null,
  billingAddress: customer?.billingAddress ?? null,
  metadata: row.metadata,
  ...bill,
});
