// The buyer's receipt for a one-time purchase (a plan's first payment has its own email).

import type { Db, SqlClient } from '../../infra/db.js';
import { customerPortalUrl, RECEIPT_SIGN_IN_TTL_MS } from '../customer-sessions/rules.js';
import { openCustomerSession } from '../customer-sessions/service.js';
import type { Mailer } from '../emails/mailer.js';
import { orderReceiptEmail, refundConfirmationEmail, type BenefitNote } from '../emails/rules.js';
import { formatMoney } from '../invoices/rules.js';
import { orderNumber } from './rules.js';
import { findOrderWithItems } from './repository.js';

/** The notes of a product's custom benefits, in the product's order; benefits without one are left out. */
export async function customBenefitNotes(sql: SqlClient, productId: string): Promise<BenefitNote[]> {
  const { rows } = await sql.query<BenefitNote>(
    `SELECT b.description, b.properties->>'note' AS note
     FROM product_benefits pb JOIN benefits b ON b.id = pb.benefit_id
     WHERE pb.product_id = $1::uuid AND b.type = 'custom' AND b.deleted_at IS NULL
       AND coalesce(btrim(b.properties->>'note'), '') <> ''
     ORDER BY pb."order"`,
    [productId],
  );
  return rows;
}

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
  const { rows } = await ctx.db.sql.query<{
    email: string;
    customerName: string | null;
    organizationName: string;
    organizationEmail: string | null;
    organizationWebsite: string | null;
    slug: string;
  }>(
    `SELECT c.email, c.name AS "customerName", o.name AS "organizationName",
            o.email AS "organizationEmail", o.website AS "organizationWebsite", o.slug
     FROM customers c, organizations o
     WHERE c.id = $1::uuid AND o.id = $2::uuid`,
    [order.customerId, order.organizationId],
  );
  const buyer = rows[0];
  if (!buyer) return 'gone';
  const { token } = await openCustomerSession(
    ctx.db,
    { id: order.customerId, organizationId: order.organizationId },
    RECEIPT_SIGN_IN_TTL_MS,
  );
  return mailer.send({
    to: buyer.email,
    idempotencyKey: `order:${order.id}:receipt`,
    ...orderReceiptEmail({
      customerName: buyer.customerName,
      productName: order.productName,
      orderNumber: orderNumber(order.id),
      organizationName: buyer.organizationName,
      organizationEmail: buyer.organizationEmail,
      organizationWebsite: buyer.organizationWebsite,
      portalUrl: customerPortalUrl(ctx.publicUrl, buyer.slug, token),
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

/** Sent once per refund that went through (its key names the refund). */
export async function sendRefundConfirmation(
  ctx: { db: Db; publicUrl: string },
  mailer: Mailer,
  refundId: string,
): Promise<'sent' | 'duplicate' | 'gone'> {
  const { rows } = await ctx.db.sql.query<{
    amount: number;
    taxAmount: number;
    currency: string;
    email: string;
    customerName: string | null;
    productName: string | null;
    organizationName: string;
    organizationEmail: string | null;
    organizationWebsite: string | null;
    slug: string;
  }>(
    `SELECT r.amount, r.tax_amount AS "taxAmount", r.currency, c.email, c.name AS "customerName",
            p.name AS "productName", o.name AS "organizationName", o.email AS "organizationEmail",
            o.website AS "organizationWebsite", o.slug
     FROM refunds r
     JOIN orders ord ON ord.id = r.order_id
     JOIN customers c ON c.id = ord.customer_id
     LEFT JOIN products p ON p.id = ord.product_id
     JOIN organizations o ON o.id = r.organization_id
     WHERE r.id = $1::uuid AND r.status = 'succeeded'`,
    [refundId],
  );
  const refund = rows[0];
  if (!refund) return 'gone';
  return mailer.send({
    to: refund.email,
    idempotencyKey: `refund:${refundId}:confirmation`,
    ...refundConfirmationEmail({
      customerName: refund.customerName,
      productName: refund.productName ?? 'your order',
      amount: formatMoney(refund.amount + refund.taxAmount, refund.currency),
      organizationName: refund.organizationName,
      organizationEmail: refund.organizationEmail,
      organizationWebsite: refund.organizationWebsite,
      portalUrl: `${ctx.publicUrl}/portal/${encodeURIComponent(refund.slug)}`,
    }),
  });
}
