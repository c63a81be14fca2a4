import type { Db } from '../../infra/db.js';
import { AppError } from '../platform/errors.js';
import { findOrderOfCheckout } from '../orders/repository.js';
import { orderNumber } from '../orders/rules.js';
import { findCheckoutBySecret } from './repository.js';
import { checkoutOrderSummarySchema, type CheckoutOrderSummary } from './schemas.js';

/**
 * The order of a succeeded checkout, for its buyer. The workflow commits the order with the
 * checkout's success, so a succeeded checkout without one is a secret that never paid: 404 alike.
 */
export async function getClientCheckoutOrder(db: Db, clientSecret: string): Promise<CheckoutOrderSummary> {
  const checkout = await findCheckoutBySecret(db, clientSecret);
  const order = checkout?.status === 'succeeded' ? await findOrderOfCheckout(db, checkout.id) : null;
  if (!order) throw new AppError('ResourceNotFound', 'This checkout has no order.');
  return checkoutOrderSummarySchema.parse({
    id: order.id,
    number: orderNumber(order.id),
    created_at: order.createdAt.toISOString(),
    currency: order.currency,
    items: order.items.map((item) => ({
      label: item.label,
      amount: item.amount,
      tax_amount: item.taxAmount,
    })),
    subtotal_amount: order.subtotalAmount,
    discount_amount: order.discountAmount,
    tax_amount: order.taxAmount,
    total_amount: order.totalAmount,
  });
}
