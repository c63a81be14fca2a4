// The buyer's receipt for a one-time purchase (a plan's first payment has its own email).

import type { Db } from '../../infra/db.js';
import { customerPortalUrl, RECEIPT_SIGN_IN_TTL_MS } from '../customer-sessions/rules.js';
import { openCustomerSession } from '../customer-sessions/service.js';
import { findCustomerContact } from '../customers/repository.js';
import type { Mailer } from '../emails/mailer.js';
import { orderReceiptEmail } from '../emails/rules.js';
import { formatMoney } from '../money/rules.js';
import { findOrganizationById } from '../organizations/repository.js';
import { customBenefitNotes } from '../products/repository.js';
import { orderNumber } from './rules.js';
import { findOrderWithItems } from './repository.js';

/**
 * Sent once per order (its key names the order), so a retried step never sends it twice. Its link
 * signs the buyer into the portal (a session of its own: the checkout's token is only stored hashed).
 */
export async function sendOrderReceipt(
  ctx: { db: Db; publicUrl: string },
  mailer: Mailer,
  orderId: string,
): Promise<'sent' | 'duplicate' | 'gone'> {
  const order = await findOrderWithItems(ctx.db.sql, orderId);
  if (!order || order.status !== 'paid' || order.subscriptionId || !order.productId) return 'gone';
  const [customer, organization] = await Promise.all([
    findCustomerContact(ctx.db.sql, order.customerId),
    findOrganizationById(ctx.db.sql, order.organizationId),
  ]);
  if (!customer || !organization) return 'gone';
  const { token } = await openCustomerSession(
    ctx.db,
    { id: order.customerId, organizationId: order.organizationId },
    { ttlMs: RECEIPT_SIGN_IN_TTL_MS },
  );
  return mailer.send({
    to: customer.email,
    idempotencyKey: `order:${order.id}:receipt`,
    ...orderReceiptEmail({
      customerName: customer.name,
      productName: order.productName,
      orderNumber: orderNumber(order.id),
      organizationName: organization.name,
      organizationEmail: organization.email,
      organizationWebsite: organization.website,
      portalUrl: customerPortalUrl(ctx.publicUrl, organization.slug, token),
      amount: order.totalAmount > 0 ? formatMoney(order.totalAmount, order.currency) : null,
      lines: [
        ...order.items.map((item) => ({
          label: item.label,
          amount: formatMoney(item.amount, order.currency),
        })),
        ...(order.discountAmount > 0
          ? [{ label: 'Discount', amount: `−${formatMoney(order.discountAmount, order.currency)}` }]
          : []),
        ...(order.taxAmount > 0
          ? [{ label: 'Tax', amount: formatMoney(order.taxAmount, order.currency) }]
          : []),
      ],
      benefitNotes: await customBenefitNotes(ctx.db.sql, order.productId),
    }),
  });
}
