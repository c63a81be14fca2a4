// The order that opens period N of a subscription (its renewal), priced: the new period's fees less
// their discount, the ended period's metered usage, the proration lines waiting for it, and its
// tax. The renewal (billing.ts `cycleSubscription`) makes this order; the upcoming-invoice estimate
// (upcoming-invoice.ts) shows it unmade. Both price it here, so they never disagree.
import type { Db, SqlClient } from '../../infra/db.js';
import { usageInWindows } from '../customer-meters/repository.js';
import { aggregationSchema, filterSchema } from '../meters/schemas.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { customerTaxBasis } from '../tax/rules.js';
import { priceType, seatsLabel } from '../prices/registry.js';
import { meteredLineCharge, shareMeterCredits, type MeteredLineCharge } from '../usage/rules.js';
import type { SubscriptionRow, SubscriptionStepRow } from './repository.js';
import { periodMeterCreditsSchema, type PeriodMeterCredits } from './schemas.js';
import { discountOfPeriod } from './schedule.js';
import { planPricingOf } from './views.js';
import { meterClockOf, meteringSince, type MeterClockRow } from './meter-cycles.js';
import { cycleBill, periodStart, type BillingLine, type CycleBill, type RecurringInterval } from './rules.js';

/** The request key of the order that opens period `index` (its renewal). */
export const cycleKey = (subscriptionId: string, index: number) =>
  `subscription:${subscriptionId}:cycle:${index}`;

/** One metered price's usage over a window, as its line bills it. */
export type MeteredUsage = {
  /** The order's line: named after the meter, the charge's amount. */
  line: BillingLine;
  meter: { id: string; name: string };
  /**
   * Units the meter counted in the window, and the period's credits left for them when their turn
   * came (decimal texts, exact): what earlier usage in the period took is not offered again.
   */
  units: string;
  creditedUnits: string;
  /** Cents per unit, a decimal. */
  unitAmount: string;
  capAmount: number | null;
  charge: MeteredLineCharge;
};

/** Metered usage measured over a window, and the period's meter credits taken once it is billed. */
export type MeasuredUsage = { usage: MeteredUsage[]; creditsTaken: PeriodMeterCredits };

type MeteredRow = Pick<
  SubscriptionRow,
  'prices' | 'product' | 'organizationId' | 'customerId' | 'currentPeriodStart' | 'periodMeterCredits'
> &
  MeterClockRow;

/**
 * What a subscription's metered prices bill for the current period up to `until`, one per price
 * named after its meter, in the order the product lists them: the customer's usage from the
 * period's start (or from when the price joined the subscription, in the subscription's time, if
 * later: usage from before the subscription, or before its price or meter existed, is never
 * billed), less the period's credits, at the price's unit amount, capped. A meter's credits count
 * once in a period (`shareMeterCredits`): usage billed before (a plan change's dropped price) took
 * its part already (`period_meter_credits`), and of these prices the earliest usage takes first.
 * `which` picks the prices (all, by default).
 */
export async function measureMeteredUsage(
  sql: SqlClient,
  row: MeteredRow,
  until: Date,
  which: (productPriceId: string) => boolean = () => true,
): Promise<MeasuredUsage> {
  const takenBefore = periodMeterCreditsSchema.parse(row.periodMeterCredits);
  // With a meter cycle of its own, usage and credits count from the current meter cycle's start.
  const since = meteringSince(meterClockOf(row));
  const periodStartMs = since.getTime();
  const metered = row.prices.flatMap(({ productPrice: price, createdAt: attachedAt }) => {
    const usage = priceType(price.amountType).cycle.usage(price);
    return usage && price.meter && which(price.id)
      ? [
          {
            price,
            meter: price.meter,
            unitAmount: usage.unitAmount,
            from: new Date(Math.max(periodStartMs, attachedAt.getTime())),
          },
        ]
      : [];
  });
  if (metered.length === 0) return { usage: [], creditsTaken: takenBefore };
  const listed = (id: string) => row.product.prices.findIndex((price) => price.id === id);
  metered.sort((a, b) => listed(a.price.id) - listed(b.price.id));
  const measured = await usageInWindows(
    sql,
    row.organizationId,
    metered.map(({ price, meter, from }) => ({
      key: price.id,
      customerId: row.customerId,
      meter: {
        id: meter.id,
        filter: filterSchema.parse(meter.filter),
        aggregation: aggregationSchema.parse(meter.aggregation),
      },
      from,
      to: until,
      creditsFrom: since,
    })),
  );
  const unitsOf = (priceId: string) => measured.get(priceId)?.units ?? '0';
  // Each meter's credits, shared by its prices in the order their usage began (the sort is stable:
  // prices that began together keep the product's order).
  const offered = new Map<string, string>();
  const creditsTaken = { ...takenBefore };
  const byStart = [...metered].sort((a, b) => a.from.getTime() - b.from.getTime());
  for (const meterId of new Set(byStart.map(({ meter }) => meter.id))) {
    const ofMeter = byStart.filter(({ meter }) => meter.id === meterId);
    const shared = shareMeterCredits({
      // Every window of a meter reads the same credits: those dated in the period up to `until`.
      credited: measured.get(ofMeter[0]!.price.id)?.credited ?? '0',
      takenBefore: takenBefore[meterId] ?? '0',
      units: ofMeter.map(({ price }) => unitsOf(price.id)),
    });
    ofMeter.forEach(({ price }, index) => offered.set(price.id, shared.available[index]!));
    creditsTaken[meterId] = shared.taken;
  }
  const usage = metered.map(({ price, meter, unitAmount }) => {
    const units = unitsOf(price.id);
    const creditedUnits = offered.get(price.id) ?? '0';
    const charge = meteredLineCharge({ unitAmount, units, creditedUnits, capAmount: price.capAmount });
    return {
      line: { label: meter.name, amount: charge.amount, proration: false, productPriceId: price.id },
      meter: { id: meter.id, name: meter.name },
      units,
      creditedUnits,
      unitAmount,
      capAmount: price.capAmount,
      charge,
    };
  });
  return { usage, creditsTaken };
}

/** The fees of one period and their discount, for the discount as it applies to that period. */
export function periodFees(
  row: SubscriptionStepRow,
  periodStartAt: Date,
): { fees: BillingLine[]; discount: number; keepsDiscount: boolean } {
  const fees = row.prices.map((price) => ({
    label: seatsLabel(row.product.name, row.seats),
    amount: price.amount,
    proration: false,
    productPriceId: price.productPriceId,
  }));
  // The rule the price schedule of the subscription's wire shape and emails is derived from.
  const { applies, amount } = discountOfPeriod(planPricingOf(row), periodStartAt);
  return { fees, discount: amount, keepsDiscount: applies };
}

export type RenewalPlan = {
  index: number;
  start: Date;
  end: Date;
  bill: CycleBill;
  keepsDiscount: boolean;
  pendingIds: string[];
};

/**
 * The bill of the order that opens period `index`: its fees less the discount as it applies to
 * that period, then the usage lines and the proration lines waiting for it. A subscription set to
 * cancel bills no fees (it ends instead), only what is pending, and carries no credit.
 */
export function planRenewal(row: SubscriptionStepRow, index: number, usage: BillingLine[]): RenewalPlan {
  const interval = row.recurringInterval as RecurringInterval;
  const count = row.recurringIntervalCount;
  const start = periodStart(row.billingAnchor, interval, index - row.periodIndexBase, count);
  const end = periodStart(row.billingAnchor, interval, index + 1 - row.periodIndexBase, count);
  const { fees, discount, keepsDiscount } = periodFees(row, start);
  const bill = cycleBill({
    ending: row.cancelAtPeriodEnd,
    fees: row.cancelAtPeriodEnd ? [] : fees,
    feeDiscount: row.cancelAtPeriodEnd ? 0 : discount,
    pending: [
      ...usage,
      ...row.pendingItems.map((item) => ({
        label: item.label,
        amount: item.amount,
        proration: true,
        productPriceId: item.productPriceId,
      })),
    ],
  });
  return { index, start, end, bill, keepsDiscount, pendingIds: row.pendingItems.map((item) => item.id) };
}

/**
 * The subscription's own fields once its renewal opened `plan`'s period: its dates, what it pays
 * per period (the fees less the discount as it applies to that period; a discount whose duration
 * is over is dropped), and a fresh ledger: the fee billed, nothing used yet, none of the period's
 * meter credits taken.
 */
export function openedPeriod(row: SubscriptionStepRow, plan: RenewalPlan) {
  const { fees, discount } = periodFees(row, plan.start);
  const amount = fees.reduce((sum, line) => sum + line.amount, 0) - discount;
  return {
    currentPeriodIndex: plan.index,
    currentPeriodStart: plan.start,
    currentPeriodEnd: plan.end,
    amount,
    ...(plan.keepsDiscount ? {} : { discountId: null, discountFirstPeriodStart: null }),
    periodBilled: amount,
    periodUsed: 0,
    periodLedgerSince: plan.start,
    periodMeterCredits: {},
  };
}

/** The customer an order is billed to: none once deleted (no name, no address, no tax). */
export const billedCustomerOf = (row: Pick<SubscriptionStepRow, 'customer'>) =>
  row.customer.deletedAt ? null : row.customer;

// Its customer's billing address and tax number as they are when it is billed (`customerTaxBasis`,
// shared with the seller's draft orders).
export { customerTaxBasis } from '../tax/rules.js';

export type PricedRenewal = {
  plan: RenewalPlan;
  /** The ended period's metered usage, measured once: a later event dated in it is not billed. */
  usage: MeteredUsage[];
  /** The tax on the bill's net amount (0 when the calculator cannot say yet, as without a country). */
  taxAmount: number;
};

/**
 * The order that opens period `index` (the current one's successor), priced as the renewal bills
 * it: usage measured up to the current period's end, the bill, and its tax quote (under the
 * order's own key, so Stripe Tax answers the renewal and an estimate of it alike).
 */
export async function priceRenewal(
  ctx: { db: Db; tax: TaxCalculator },
  row: SubscriptionStepRow,
  index: number,
): Promise<PricedRenewal> {
  const { usage } = await measureMeteredUsage(ctx.db.sql, row, row.currentPeriodEnd);
  const plan = planRenewal(
    row,
    index,
    usage.map((each) => each.line),
  );
  const customer = billedCustomerOf(row);
  const quote =
    plan.bill.net > 0
      ? await ctx.tax.quote({
          amount: plan.bill.net,
          currency: row.currency,
          ...customerTaxBasis(customer),
          productId: row.productId,
          idempotencyKey: `${cycleKey(row.id, index)}:tax:${plan.bill.net}`,
        })
      : null;
  return { plan, usage, taxAmount: quote?.amount ?? 0 };
}
