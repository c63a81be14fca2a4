import { pendingUpdateView } from './pending-updates.js';
import { customerView } from '../customers/views.js';
import { discountView } from '../discounts/views.js';
import { priceView, productView } from '../products/views.js';
import { meterView } from '../meters/views.js';
import type { SubscriptionRow, SubscriptionStepRow } from './repository.js';
import { decimalAmount } from '../money/rules.js';
import { taxOfItems } from '../orders/rules.js';
import { subscriptionOwnFields } from '../products/views.js';
import { currentMeterPeriodFields } from './meter-cycles.js';
import { subscriptionMeterFields } from '../customer-state/views.js';
import type { MeteredUsage, PricedRenewal } from './renewal-pricing.js';
import { renewalMakesOrder, type RecurringInterval } from './rules.js';
import type { DiscountDuration, DiscountType } from '../discounts/schemas.js';
import { discountOfPeriod, priceSchedule, withTrial, type PlanPricing, type PricePhase } from './schedule.js';
import {
  ACTIVE_STATUSES,
  BILLABLE_STATUSES,
  upcomingInvoiceSchema,
  type UpcomingInvoice,
  type UpcomingInvoiceLine,
  type UpcomingInvoiceMeter,
  type SubscriptionStatus,
  subscriptionSchema,
  type PricePhaseWire,
  type Subscription,
} from './schemas.js';

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** Polar's export columns. */
export const SUBSCRIPTION_EXPORT_COLUMNS = [
  'Email',
  'Created At',
  'Active',
  'Product',
  'Price',
  'Currency',
  'Interval',
] as const;

export function subscriptionExportRow(row: SubscriptionRow): (string | boolean)[] {
  return [
    row.customer.email,
    row.createdAt.toISOString(),
    ACTIVE_STATUSES.includes(row.status as SubscriptionStatus),
    row.product.name,
    decimalAmount(row.amount, row.currency),
    row.currency.toUpperCase(),
    row.recurringInterval,
  ];
}

type PricedRow = Pick<
  SubscriptionRow,
  | 'currency'
  | 'discount'
  | 'discountFirstPeriodStart'
  | 'amount'
  | 'recurringInterval'
  | 'billingAnchor'
  | 'currentPeriodIndex'
  | 'periodIndexBase'
  | 'cancelAtPeriodEnd'
  | 'endedAt'
  | 'status'
  | 'recurringIntervalCount'
  | 'trialEnd'
  | 'currentPeriodStart'
> & { prices: { amount: number }[] };

/** How the renewals price a period of this plan: its fees, and its discount unless the seller deleted it. */
export function planPricingOf(
  row: Pick<PricedRow, 'prices' | 'currency' | 'discount' | 'discountFirstPeriodStart'>,
): PlanPricing {
  const discount = row.discount && !row.discount.deletedAt ? row.discount : null;
  return {
    fees: row.prices.reduce((sum, price) => sum + price.amount, 0),
    currency: row.currency,
    discount:
      discount && row.discountFirstPeriodStart
        ? {
            type: discount.type as DiscountType,
            amount: discount.amount,
            currency: discount.currency,
            basisPoints: discount.basisPoints,
            duration: discount.duration as DiscountDuration,
            durationInMonths: discount.durationInMonths,
            firstPeriodStart: row.discountFirstPeriodStart,
          }
        : null,
  };
}

export const pricePhaseView = (phase: PricePhase): PricePhaseWire => ({
  amount: phase.amount,
  periods: phase.periods,
  starts_at: phase.startsAt.toISOString(),
  ends_at: iso(phase.endsAt),
  ...(phase.trial ? { trial: true as const } : {}),
});

/** What the plan costs from its current period on (schedule.ts); nothing once it has ended. */
export function priceScheduleOf(row: PricedRow): PricePhase[] {
  if (row.endedAt !== null || !BILLABLE_STATUSES.includes(row.status as SubscriptionStatus)) return [];
  if (row.status === 'trialing' && row.trialEnd) return trialScheduleOf(row, row.trialEnd);
  return priceSchedule({
    pricing: planPricingOf(row),
    periods: {
      interval: row.recurringInterval as RecurringInterval,
      anchor: row.billingAnchor,
      index: row.currentPeriodIndex - row.periodIndexBase,
      count: row.recurringIntervalCount,
    },
    currentAmount: row.amount,
    renews: !row.cancelAtPeriodEnd,
  });
}

/**
 * A plan in its free trial: nothing for the trial (period 0), then its periods from the trial's
 * end (the anchor), the first one's discount as the conversion will apply it; set to cancel, it
 * ends with the trial and is billed nothing.
 */
function trialScheduleOf(row: PricedRow, trialEnd: Date): PricePhase[] {
  if (row.cancelAtPeriodEnd) return withTrial([], row.currentPeriodStart, trialEnd);
  const pricing = planPricingOf(row);
  const paid = priceSchedule({
    pricing,
    periods: {
      interval: row.recurringInterval as RecurringInterval,
      anchor: row.billingAnchor,
      index: 0,
      count: row.recurringIntervalCount,
    },
    currentAmount: pricing.fees - discountOfPeriod(pricing, row.billingAnchor).amount,
    renews: true,
  });
  return withTrial(paid, row.currentPeriodStart, trialEnd);
}

export function subscriptionView(row: SubscriptionRow, publicUrl: string): Subscription {
  const discount =
    row.discount && !row.discount.deletedAt ? discountView({ ...row.discount, products: [] }) : null;
  return subscriptionSchema.parse({
    ...subscriptionOwnFields(row),
    ...currentMeterPeriodFields(row),
    discount_id: discount ? row.discountId : null,
    customer: customerView(row.customer),
    product: productView(row.product, publicUrl),
    discount: discount ? { ...discount, products: undefined } : null,
    prices: row.prices.map((price) => priceView(price.productPrice)),
    meters: row.meters.map((meter) => ({ ...subscriptionMeterFields(meter), meter: meterView(meter.meter) })),
    pending_update: pendingUpdateView(row),
    price_schedule: priceScheduleOf(row).map(pricePhaseView),
  });
}

function upcomingInvoiceMeterView(usage: MeteredUsage): UpcomingInvoiceMeter {
  return {
    product_price_id: usage.line.productPriceId!,
    meter_id: usage.meter.id,
    meter_name: usage.meter.name,
    consumed_units: Number(usage.units),
    credited_units: Number(usage.creditedUnits),
    billable_units: Number(usage.charge.billableUnits),
    unit_amount: usage.unitAmount,
    cap_amount: usage.capAmount,
    capped: usage.charge.capped,
    amount: usage.charge.amount,
  };
}

/**
 * The order the next renewal makes, as `priced` (renewal-pricing.ts) prices it: its items with
 * their share of the tax, as the order writes them. Null `priced`: the subscription has ended and
 * bills nothing more.
 */
export function upcomingInvoiceView(
  row: Pick<
    SubscriptionStepRow,
    'id' | 'currency' | 'currentPeriodStart' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'discountId'
  >,
  priced: PricedRenewal | null,
): UpcomingInvoice {
  const bill = priced && renewalMakesOrder(priced.plan.bill) ? priced.plan.bill : null;
  const taxAmount = bill ? priced!.taxAmount : 0;
  const taxes = taxOfItems(bill?.items.map((item) => item.amount) ?? [], taxAmount);
  const usageByPrice = new Map(priced?.usage.map((usage) => [usage.line.productPriceId, usage]) ?? []);
  const currentPeriod = {
    period_start: row.currentPeriodStart.toISOString(),
    period_end: row.currentPeriodEnd.toISOString(),
  };
  const lines = (bill?.items ?? []).map((item, index): UpcomingInvoiceLine => {
    const usage = item.proration ? undefined : usageByPrice.get(item.productPriceId);
    const common = {
      label: item.label,
      amount: item.amount,
      tax_amount: taxes[index]!,
      proration: item.proration,
      product_price_id: item.productPriceId,
    };
    if (item.proration)
      return { ...common, type: 'proration', period_start: null, period_end: null, meter: null };
    if (usage)
      return { ...common, type: 'metered', ...currentPeriod, meter: upcomingInvoiceMeterView(usage) };
    return {
      ...common,
      type: 'fixed',
      period_start: priced!.plan.start.toISOString(),
      period_end: priced!.plan.end.toISOString(),
      meter: null,
    };
  });
  return upcomingInvoiceSchema.parse({
    subscription_id: row.id,
    currency: row.currency,
    billed_at: bill ? row.currentPeriodEnd.toISOString() : null,
    ends_subscription: priced !== null && row.cancelAtPeriodEnd,
    ...currentPeriod,
    lines,
    subtotal_amount: bill?.subtotal ?? 0,
    discount_amount: bill?.discount ?? 0,
    // As the order records it: the discount only when it took something off.
    discount_id: bill && bill.discount > 0 ? row.discountId : null,
    net_amount: bill?.net ?? 0,
    tax_amount: taxAmount,
    total_amount: (bill?.net ?? 0) + taxAmount,
    carried_credit_amount: bill?.carriedCredit ?? 0,
    meters: priced?.usage.map(upcomingInvoiceMeterView) ?? [],
  });
}
