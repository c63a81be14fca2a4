// The seller's "New order" email: each member who gets it (their own choice, else their role's
// default; domain/access/rules.ts `getsNewOrderEmail`) is told once of each paid order.

import type { Db } from '../../infra/db.js';
import { getsNewOrderEmail } from '../access/rules.js';
import { listNewOrderEmailCandidates } from '../access/repository.js';
import { findCustomerContact } from '../customers/repository.js';
import { DOCUMENT_LOCALE, formatInstant } from '../dates/rules.js';
import type { Mailer } from '../emails/mailer.js';
import { newOrderEmail } from '../emails/rules.js';
import { formatMoney } from '../money/rules.js';
import { findOrganizationById } from '../organizations/repository.js';
import { findProductName } from '../products/repository.js';
import { findOrderWithItems } from './repository.js';
import { orderNumber } from './rules.js';

/** The key of one member's email about one order: a retried step sends it once. */
export const newOrderEmailKey = (orderId: string, userId: string) => `order:${orderId}:new-order:${userId}`;

/**
 * Sends the organization's members the "New order" email of a paid order; an order not paid (yet,
 * or any more) sends nothing. Returns how many were sent now (duplicates of a retry not counted).
 */
export async function sendNewOrderEmails(
  ctx: { db: Db; publicUrl: string },
  mailer: Mailer,
  orderId: string,
): Promise<number> {
  const order = await findOrderWithItems(ctx.db.sql, orderId);
  if (!order || order.status !== 'paid') return 0;
  const recipients = (await listNewOrderEmailCandidates(ctx.db, order.organizationId)).filter(
    getsNewOrderEmail,
  );
  if (recipients.length === 0) return 0;
  const [customer, organization, productName] = await Promise.all([
    findCustomerContact(ctx.db.sql, order.customerId),
    findOrganizationById(ctx.db.sql, order.organizationId),
    order.productId ? findProductName(ctx.db.sql, order.productId) : null,
  ]);
  if (!customer || !organization) return 0;
  const number = orderNumber(order.id);
  let sent = 0;
  for (const member of recipients) {
    const outcome = await mailer.send({
      to: member.user.email,
      idempotencyKey: newOrderEmailKey(order.id, member.userId),
      ...newOrderEmail({
        memberName: member.user.name,
        organizationName: organization.name,
        orderNumber: number,
        productName: productName ?? order.items[0]?.label ?? 'an order',
        amount: formatMoney(order.totalAmount, order.currency),
        customer: customer.name?.trim() ? `${customer.name} (${customer.email})` : customer.email,
        placedAt: formatInstant(order.createdAt, {
          timeZone: organization.timeZone,
          locale: DOCUMENT_LOCALE,
          style: 'long',
          withZone: true,
        }),
        orderUrl: `${ctx.publicUrl}/dashboard/orders/${order.id}`,
        settingsUrl: `${ctx.publicUrl}/dashboard/settings#notifications`,
      }),
    });
    if (outcome === 'sent') sent += 1;
  }
  return sent;
}
