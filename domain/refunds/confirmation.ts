// The buyer's email when a refund went through.

import type { Db } from '../../infra/db.js';
import type { Mailer } from '../emails/mailer.js';
import { refundConfirmationEmail } from '../emails/rules.js';
import { formatMoney } from '../money/rules.js';
import { findRefundConfirmation } from './repository.js';

/** Sent once per refund that went through (its key names the refund). */
export async function sendRefundConfirmation(
  ctx: { db: Db; publicUrl: string },
  mailer: Mailer,
  refundId: string,
): Promise<'sent' | 'duplicate' | 'gone'> {
  const refund = await findRefundConfirmation(ctx.db.sql, refundId);
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
