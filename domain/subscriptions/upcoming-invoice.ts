// The upcoming invoice (our extension): the order a subscription's next renewal will make, priced
// now by the renewal's own code (renewal-pricing.ts), for the seller (GET
// /v1/subscriptions/{id}/upcoming-invoice) and the buyer (the portal's counterpart). Read-only:
// it writes no row, makes no order and sends nothing.
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { accessibleOrganizationIds } from '../access/service.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { AppError } from '../platform/errors.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { isEnded } from './workflow-state.js';
import { priceRenewal } from './renewal-pricing.js';
import { findSubscriptionForStep, type SubscriptionStepRow } from './repository.js';
import type { UpcomingInvoice } from './schemas.js';
import { upcomingInvoiceView } from './views.js';
import { meterClockOf, meterCycleDueMs, meteringSince } from './meter-cycles.js';
import { priceMeterCycle } from './meter-cycling.js';

export type UpcomingInvoiceContext = { db: Db; tax: TaxCalculator };

/**
 * What the renewal at the end of the current period will bill, as it would bill it if no more
 * usage arrived: usage measured up to the period's end, the discount as it applies to the next
 * period, the pending proration lines, the tax quote. An ended subscription bills nothing more.
 */
export async function estimateUpcomingInvoice(
  ctx: UpcomingInvoiceContext,
  row: SubscriptionStepRow,
): Promise<UpcomingInvoice> {
  if (isEnded(row)) return upcomingInvoiceView(row, null);
  // A meter cycle of its own that closes inside the period: its usage order comes first.
  if (meterCycleDueMs(meterClockOf(row)) !== null) return estimateMeterCycleInvoice(ctx, row);
  // Its usage (and the period the estimate shows) counts from the last meter cycle's start.
  return upcomingInvoiceView(
    { ...row, currentPeriodStart: meteringSince(meterClockOf(row)) },
    await priceRenewal(ctx, row, row.currentPeriodIndex + 1),
  );
}

const notFound = () => new AppError('ResourceNotFound', 'Subscription not found');

/** The seller's: a subscription of an organization the caller may read; any other is not found. */
export async function getUpcomingInvoice(
  ctx: UpcomingInvoiceContext,
  caller: Caller,
  id: string,
): Promise<UpcomingInvoice> {
  const row = await findSubscriptionForStep(ctx.db, id);
  if (!row?.startedAt || !(await accessibleOrganizationIds(ctx.db, caller)).includes(row.organizationId)) {
    throw notFound();
  }
  return estimateUpcomingInvoice(ctx, row);
}

/** The buyer's: their own subscription only; another customer's is not found. */
export async function getCustomerUpcomingInvoice(
  ctx: UpcomingInvoiceContext,
  customer: CustomerCaller,
  id: string,
): Promise<UpcomingInvoice> {
  const row = await findSubscriptionForStep(ctx.db, id);
  if (
    !row?.startedAt ||
    row.customerId !== customer.customerId ||
    row.organizationId !== customer.organizationId
  ) {
    throw notFound();
  }
  return estimateUpcomingInvoice(ctx, row);
}

/**
 * The order closing the current meter cycle (meter-cycling.ts), in the upcoming invoice's shape:
 * the cycle's dates as its period, its usage lines alone (no fees, no discount, no proration:
 * those wait for the renewal), billed at the cycle's end.
 */
async function estimateMeterCycleInvoice(
  ctx: UpcomingInvoiceContext,
  row: SubscriptionStepRow,
): Promise<UpcomingInvoice> {
  const index = row.currentPeriodIndex;
  const priced = await priceMeterCycle(ctx, row, index);
  const bill = { items: priced.items, subtotal: priced.net, discount: 0, net: priced.net, carriedCredit: 0 };
  return upcomingInvoiceView(
    {
      ...row,
      currentPeriodStart: priced.period.start,
      currentPeriodEnd: priced.period.end,
      // The cycle's order never ends the plan: a plan set to cancel ends at the period's end.
      cancelAtPeriodEnd: false,
    },
    {
      plan: { index, ...priced.period, bill, keepsDiscount: true, pendingIds: [] },
      usage: priced.usage,
      taxAmount: priced.taxAmount,
    },
  );
}
