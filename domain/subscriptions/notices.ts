// The buyer's emails about their plan, sent by the `subscription:<id>` workflow's activities: it
// started, a renewal or change was paid, it was set to cancel, a try failed. Each is keyed by what
// it is about, so a retried step never sends it twice.
import { customerPortalUrl, RECEIPT_SIGN_IN_TTL_MS } from '../customer-sessions/rules.js';
import { openCustomerSession } from '../customer-sessions/service.js';
import { DOCUMENT_LOCALE, formatDay } from '../dates/rules.js';
import type { Mailer } from '../emails/mailer.js';
import {
  subscriptionCanceledEmail,
  subscriptionPaymentFailedEmail,
  subscriptionReceiptEmail,
  subscriptionStartedEmail,
  trialConvertedEmail,
  trialEndingEmail,
  trialStartedEmail,
} from '../emails/rules.js';
import { formatMoney } from '../money/rules.js';
import { findOrderWithItems, type OrderWithItems } from '../orders/repository.js';
import { customBenefitNotes } from '../products/repository.js';
import type { SubscriptionBillingContext } from './billing-step.js';
import { planWords } from './plan-words.js';
import { findSubscriptionForStep, type SubscriptionStepRow } from './repository.js';

/** One email per failed try (its key names the order and the try), so a retried step never sends twice. */
export async function notifySubscriptionPaymentFailed(
  ctx: SubscriptionBillingContext,
  mailer: Mailer,
  input: {
    subscriptionId: string;
    orderId: string;
    attempt: number;
    reason: string;
    /** The processor refused the request: `reason` is the seller's, not words for the buyer. */
    refused?: boolean;
    nextAttemptAt: string | null;
  },
): Promise<'sent' | 'duplicate' | 'gone'> {
  const row = await findSubscriptionForStep(ctx.db, input.subscriptionId);
  const order = await findOrderWithItems(ctx.db.sql, input.orderId);
  if (!row || !order) return 'gone';
  return mailer.send({
    to: row.customer.email,
    idempotencyKey: `subscription:${row.id}:order:${order.id}:failed:${input.attempt}`,
    ...subscriptionPaymentFailedEmail({
      customerName: row.customer.name,
      ...sellerOf(ctx, row),
      productName: row.product.name,
      amount: formatMoney(order.totalAmount, order.currency),
      failure: input.refused ? { kind: 'refused' } : { kind: 'declined', reason: input.reason },
      nextAttemptOn: input.nextAttemptAt ? emailDate(new Date(input.nextAttemptAt), row) : null,
    }),
  });
}

/** A day in the buyer's email: the seller's calendar (its time zone), in English. */
export const emailDate = (date: Date, row: SubscriptionStepRow) =>
  formatDay(date, { timeZone: row.organization.timeZone, locale: DOCUMENT_LOCALE, style: 'long' });

export const sellerOf = (ctx: { publicUrl: string }, row: SubscriptionStepRow) => ({
  organizationName: row.organization.name,
  organizationEmail: row.organization.email,
  organizationWebsite: row.organization.website,
  // The buyer manages the plan there themselves (signing in by an emailed code).
  portalUrl: `${ctx.publicUrl}/portal/${encodeURIComponent(row.organization.slug)}`,
});

export type SubscriptionNotice =
  | { kind: 'started'; subscriptionId: string }
  | { kind: 'canceled'; subscriptionId: string }
  | { kind: 'receipt'; subscriptionId: string; orderId: string }
  /** A few days before the trial that ends at `trialEndMs` (trial-reminders.ts). */
  | { kind: 'trial_ending'; subscriptionId: string; trialEndMs: number };

/**
 * The buyer's emails about their plan: it started, a renewal or change was paid (a receipt), it
 * was set to cancel. Each is keyed by what it is about, so a retried step never sends it twice.
 * `inHand`: the subscription and the order as the step that paid it left them.
 */
export async function notifySubscription(
  ctx: SubscriptionBillingContext,
  mailer: Mailer,
  notice: SubscriptionNotice,
  inHand?: { row: SubscriptionStepRow; order: OrderWithItems },
): Promise<'sent' | 'duplicate' | 'gone'> {
  const row = inHand?.row ?? (await findSubscriptionForStep(ctx.db, notice.subscriptionId));
  if (!row) return 'gone';
  const base = { customerName: row.customer.name, productName: row.product.name, ...sellerOf(ctx, row) };
  const inWords = (from: 'purchase' | 'current') =>
    planWords(
      row,
      { money: (amount) => formatMoney(amount, row.currency), date: (date) => emailDate(date, row) },
      from,
    );
  switch (notice.kind) {
    case 'started': {
      // The first email signs the buyer straight into the portal, as a one-time receipt does.
      const { token } = await openCustomerSession(ctx.db, row.customer, RECEIPT_SIGN_IN_TTL_MS);
      const plan = inWords('purchase');
      const portalUrl = customerPortalUrl(ctx.publicUrl, row.organization.slug, token);
      // A plan that starts with a free trial says so: nothing charged, and when the first payment is.
      if (row.status === 'trialing' && row.trialEnd) {
        return mailer.send({
          to: row.customer.email,
          idempotencyKey: `subscription:${row.id}:started`,
          ...trialStartedEmail({
            ...base,
            portalUrl,
            trialEndsOn: emailDate(row.trialEnd, row),
            price: plan.price ?? formatMoney(row.amount, row.currency),
            usage: plan.usage,
            firstPayment: plan.nextPayment,
            benefitNotes: await customBenefitNotes(ctx.db.sql, row.product.id),
          }),
        });
      }
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `subscription:${row.id}:started`,
        ...subscriptionStartedEmail({
          ...base,
          portalUrl: customerPortalUrl(ctx.publicUrl, row.organization.slug, token),
          price: plan.price ?? formatMoney(row.amount, row.currency),
          usage: plan.usage,
          nextPayment: plan.nextPayment
            ? { amount: plan.nextPayment, on: emailDate(row.currentPeriodEnd, row) }
            : null,
          benefitNotes: await customBenefitNotes(ctx.db.sql, row.product.id),
        }),
      });
    }
    case 'canceled':
      if (!row.cancelAtPeriodEnd || !row.canceledAt || !row.endsAt) return 'gone';
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `subscription:${row.id}:canceled:${row.canceledAt.toISOString()}`,
        ...subscriptionCanceledEmail({ ...base, endsOn: emailDate(row.endsAt, row) }),
      });
    case 'receipt': {
      const order = inHand?.order ?? (await findOrderWithItems(ctx.db.sql, notice.orderId));
      if (!order || order.status !== 'paid' || order.totalAmount === 0) return 'gone';
      const card = row.paymentMethod as { brand?: string; last4?: string } | null;
      // The first period's renewal after a trial (period 1, trials.ts) is the trial's conversion:
      // its receipt says the trial is over, under the same key, so the buyer gets one email.
      const converted =
        row.trialStart !== null &&
        row.currentPeriodIndex === 1 &&
        order.billingReason === 'subscription_cycle';
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `order:${order.id}:receipt`,
        ...(converted ? trialConvertedEmail : subscriptionReceiptEmail)({
          ...base,
          amount: formatMoney(order.totalAmount, order.currency),
          card: card?.brand && card.last4 ? `${card.brand} card ending ${card.last4}` : null,
          periodStart: emailDate(row.currentPeriodStart, row),
          periodEnd: emailDate(row.currentPeriodEnd, row),
          lines: order.items.map((item) => ({
            label: item.label,
            amount: formatMoney(item.amount, order.currency),
          })),
          price: inWords('current').price,
        }),
      });
    }
    case 'trial_ending': {
      // Only while that trial still runs and will convert: a trial set to cancel, ended or moved
      // (`trial_end` updated: its own reminder) gets no reminder of this date.
      if (
        row.status !== 'trialing' ||
        row.cancelAtPeriodEnd ||
        row.trialEnd?.getTime() !== notice.trialEndMs
      ) {
        return 'gone';
      }
      const card = row.paymentMethod as { brand?: string; last4?: string } | null;
      return mailer.send({
        to: row.customer.email,
        idempotencyKey: `subscription:${row.id}:trial_ending:${row.trialEnd.toISOString()}`,
        ...trialEndingEmail({
          ...base,
          trialEndsOn: emailDate(row.trialEnd, row),
          amount: inWords('current').nextPayment,
          card: card?.brand && card.last4 ? `${card.brand} card ending ${card.last4}` : null,
        }),
      });
    }
  }
}
