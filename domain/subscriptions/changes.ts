// A seller moves a subscription to another product (PATCH {product_id, proration_behavior}). The
// time left of the old plan is credited and the time left of the new one charged, from the
// period's ledger (rules.ts `changePlan`), so no switch is free and no credit is lost. `invoice`
// bills the difference now (a `subscription_update` order the workflow charges); `prorate` leaves
// the lines for the next renewal. A change of interval restarts the period now.
import { meterCycleColumnsOf } from '../products/meter-cycles.js';
import { randomUUID } from 'node:crypto';
import { transaction, type Db, type SqlClient, type Tx } from '../../infra/db.js';
import { discountAmountFor } from '../prices/discount.js';
import { priceBilledInAdvance, priceType, seatsLabel, storedUsagePricesOf } from '../prices/registry.js';
import { findLiveCustomer, markCustomerMetersStale } from '../customers/repository.js';
import type { BenefitType } from '../benefits/schemas.js';
import type { DiscountDuration, DiscountType } from '../discounts/schemas.js';
import { createSubscriptionOrder } from '../orders/service.js';
import { findOrganizationById } from '../organizations/repository.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { findProduct, type ProductRow } from '../products/repository.js';
import type { TaxCalculator } from '../tax/calculator.js';
import { recordSubscriptionChange } from './change-events.js';
import { NO_PENDING_UPDATE, scheduleProductChange } from './pending-updates.js';
import { customerTaxBasis, measureMeteredUsage } from './renewal-pricing.js';
import {
  findSubscription,
  insertPendingItem,
  lockSubscription,
  recordSubscriptionProduct,
  replaceSubscriptionPrices,
  subscriptionNow,
  updateSubscriptionRow,
  type SubscriptionRow,
} from './repository.js';
import {
  benefitChanges,
  changeInterval,
  changePlan,
  discountApplies,
  periodStart,
  shareOf,
  type BillingLine,
  type RecurringInterval,
} from './rules.js';
import { priceSchedule } from './schedule.js';
import {
  BILLABLE_STATUSES,
  type PricePhaseWire,
  type PeriodMeterCredits,
  type ProrationPreview,
  type ProrationPreviewRequest,
  type Subscription,
  type SubscriptionStatus,
} from './schemas.js';
import { planPricingOf, pricePhaseView, subscriptionView } from './views.js';

export type PlanChangeContext = {
  db: Db;
  publicUrl: string;
  tax: TaxCalculator;
  workflows: { signalChanged(subscriptionId: string): Promise<void> };
};

type ProrationBehavior = 'invoice' | 'prorate';
/** As asked for: `next_period` waits for the period's end (pending-updates.ts); `reset` is billed as `invoice`. */
export type RequestedBehavior = ProrationBehavior | 'next_period' | 'reset';

/** What a change to `product` at `at` would do: pure over the rows. */
export type PlanChangePlan = {
  behavior: ProrationBehavior;
  intervalChange: boolean;
  /** The new product's intervals per period. */
  count: number;
  /** The seats the subscription holds on the new plan; null when its price is not sold by the seat. */
  seats: number | null;
  /** Per period, net of the discount. */
  newAmount: number;
  prices: { productPriceId: string; amount: number }[];
  lines: BillingLine[];
  /** Debits minus credits: billed now with `invoice` when positive. */
  net: number;
  ledger: { billed: number; used: number; since: Date };
  period: { start: Date; end: Date };
};

const invalid = (message: string): never => {
  throw new InvalidFieldError(['body', 'product_id'], message);
};

/**
 * The seats a subscription holds on `price` after a plan change: the seats it has (a team keeps
 * its size across plans), the price's fewest when it had none; none on a price not sold by the seat.
 */
function seatsAfterChange(row: SubscriptionRow, price: ProductRow['prices'][number]): number | null {
  const type = priceType(price.amountType);
  if (!type.checkout.takesSeats) return null;
  return row.seats ?? type.checkout.defaultSeats(type.checkout.price(price));
}

const invalidSeats = (message: string): never => {
  throw new InvalidFieldError(['body', 'seats'], message);
};

/**
 * The product's price a subscription would pay, refusing what a plan change cannot move to.
 * `seats` (a seat change, on its own product or with a change applied at the period's end): the
 * seats it will hold, refused on `seats` where the price takes none or not that many.
 */
function newPlanPrice(row: SubscriptionRow, product: ProductRow | null, seatsAsked?: number) {
  const seatChange = seatsAsked !== undefined;
  // Other seats on its own plan keep the plan's prices as the subscription pays them (a price the
  // seller replaced since is not forced on it), even when the product was archived since.
  const ownPlan = seatChange && product?.id === row.productId;
  if (!product || (product.isArchived && !ownPlan)) return invalid('Product not found.');
  if (product.id === row.productId && !seatChange)
    return invalid('The subscription is already on this product.');
  if (!product.recurringInterval)
    return invalid('Choose a product sold as a subscription; this one is sold once.');
  const prices = ownPlan ? row.prices.map((each) => each.productPrice) : product.prices;
  const price = priceBilledInAdvance(prices);
  if (seatChange && !(price && priceType(price.amountType).checkout.takesSeats)) {
    return invalidSeats("This subscription's plan is not sold by the seat: it has no seats to change.");
  }
  const seats = price ? (seatChange ? seatsAsked : seatsAfterChange(row, price)) : null;
  const terms = price ? priceType(price.amountType).cycle.planChange(price, seats) : { fee: 0 };
  if ('refusal' in terms) {
    if (seatChange) return invalidSeats(terms.refusal);
    // The subscription's seats move with it: out of the new plan's range, its seats change first.
    return invalid(
      seats === null
        ? terms.refusal
        : `${terms.refusal} The subscription has ${seats}: change its seats first.`,
    );
  }
  const currency = (price && priceType(price.amountType).cycle.currency(price)) ?? row.currency;
  if (currency !== row.currency) {
    return invalid(
      `This product is priced in ${currency.toUpperCase()}; the subscription pays in ${row.currency.toUpperCase()}.`,
    );
  }
  return {
    prices,
    price,
    fee: terms.fee,
    seats,
    interval: product.recurringInterval as RecurringInterval,
    count: product.recurringIntervalCount ?? 1,
  };
}

export function planProductChange(
  row: SubscriptionRow,
  product: ProductRow | null,
  behavior: ProrationBehavior | 'reset',
  at: Date,
  seatsAsked?: number,
): PlanChangePlan {
  const { prices, price, fee, seats, interval, count } = newPlanPrice(row, product, seatsAsked);
  const discount = row.discount && !row.discount.deletedAt ? row.discount : null;
  const keepsDiscount =
    discount !== null &&
    row.discountFirstPeriodStart !== null &&
    discountApplies(
      { duration: discount.duration as DiscountDuration, durationInMonths: discount.durationInMonths },
      row.discountFirstPeriodStart,
      row.currentPeriodStart,
    );
  const newAmount =
    fee -
    (keepsDiscount && discount
      ? discountAmountFor(
          {
            type: discount.type as DiscountType,
            amount: discount.amount,
            currency: discount.currency,
            basisPoints: discount.basisPoints,
          },
          fee,
          row.currency,
        )
      : 0);
  const period = { index: row.currentPeriodIndex, start: row.currentPeriodStart, end: row.currentPeriodEnd };
  const ledger = { billed: row.periodBilled, used: row.periodUsed, since: row.periodLedgerSince };
  // Every 3 months to every month is a new cadence as much as monthly to yearly is; `reset`
  // restarts the period at the change as a new cadence does (charged in full now, the old plan's
  // unused time credited: unlike Polar's reset, no credit is lost).
  const intervalChange =
    interval !== row.recurringInterval || count !== row.recurringIntervalCount || behavior === 'reset';
  // A trial bills nothing: a change within one (same cadence) is not prorated, the first charge at
  // the trial's end bills the new plan.
  const change =
    row.status === 'trialing' && !intervalChange
      ? { debit: 0, credit: 0, ledger }
      : (intervalChange ? changeInterval : changePlan)(
          period,
          ledger,
          { current: row.amount, next: newAmount },
          at,
        );
  const lines: BillingLine[] = [];
  if (change.debit > 0) {
    lines.push({
      label: intervalChange
        ? seatsLabel(product!.name, seats)
        : `Remaining time on ${seatsLabel(product!.name, seats)}`,
      amount: change.debit,
      proration: true,
      productPriceId: price?.id ?? null,
    });
  }
  if (change.credit > 0) {
    lines.push({
      label: `Unused time on ${seatsLabel(row.product.name, row.seats)}`,
      amount: -change.credit,
      proration: true,
      productPriceId: null,
    });
  }
  const metered = storedUsagePricesOf(prices).filter((each) => each.id !== price?.id);
  return {
    // A new interval (or `reset`) starts a new period now, and a period is paid up front.
    behavior: intervalChange ? 'invoice' : behavior,
    intervalChange,
    count,
    seats,
    newAmount,
    prices: [
      ...(price ? [{ productPriceId: price.id, amount: fee }] : []),
      ...metered.map((each) => ({ productPriceId: each.id, amount: 0 })),
    ],
    lines,
    net: change.debit - change.credit,
    ledger: change.ledger,
    period: intervalChange
      ? { start: at, end: periodStart(at, interval, 1, count) }
      : { start: row.currentPeriodStart, end: row.currentPeriodEnd },
  };
}

/** Open to a change of plan, seats or discount: running, paid up or in dunning, not set to cancel. */
export const isChangeable = (row: SubscriptionRow) =>
  row.endedAt === null &&
  BILLABLE_STATUSES.includes(row.status as SubscriptionStatus) &&
  !row.cancelAtPeriodEnd;

/**
 * A subscription on a test clock that is advancing has not lived up to the clock's time yet: a
 * change now would be dated in a period it has not reached. Refused until the clock is ready.
 */
export function assertCaughtUpWithClock(row: SubscriptionRow): void {
  const clock = row.customer.testClock;
  if (clock && (row.clockCaughtUpTo === null || row.clockCaughtUpTo < clock.frozenTime)) {
    throw new AppError(
      'Conflict',
      "This customer's test clock is advancing; change the subscription once the clock is ready.",
    );
  }
}

/** `current`: the subscription as the caller, allowed to manage it, found it. */
export function changeSubscriptionProduct(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  input: { product_id: string; proration_behavior?: RequestedBehavior | null },
): Promise<Subscription> {
  return changeSubscriptionPlan(ctx, current, { productId: input.product_id }, input.proration_behavior);
}

/**
 * What a change moves the subscription to: another product (its seats kept or defaulted, or
 * `seats`), or only other seats (seat-changes.ts) on the plan's product, or on the product a
 * pending update moves it to when the seats too wait for the period's end.
 */
export type ChangeTarget = { productId: string; seats?: number } | { productId?: never; seats: number };

/** A plan or seat change, billed by `asked` (else the organization's proration behavior). */
export async function changeSubscriptionPlan(
  ctx: PlanChangeContext,
  current: SubscriptionRow,
  target: ChangeTarget,
  asked: RequestedBehavior | null | undefined,
): Promise<Subscription> {
  const { id } = current;
  if (!isChangeable(current)) throw new AppError('AlreadyCanceledSubscription');
  const organization = await findOrganizationById(ctx.db.sql, current.organizationId);
  const behavior = requestedBehavior(asked, organization);
  if (behavior === 'next_period') return scheduleProductChange(ctx, current, target);
  // The seats it has: nothing to bill, and nothing pending to replace.
  if (target.productId === undefined && target.seats === current.seats) {
    return subscriptionView(current, ctx.publicUrl);
  }
  const productId = target.productId ?? current.productId;
  const product = await findProduct(ctx.db, productId, [current.organizationId]);
  // Priced and taxed before the lock; the transaction checks the price did not move meanwhile.
  assertCaughtUpWithClock(current);
  const quoted = planProductChange(current, product, behavior, subscriptionNow(current), target.seats);
  const customer = await findLiveCustomer(ctx.db, current.customerId);
  const taxQuote =
    quoted.behavior === 'invoice' && quoted.net > 0
      ? await ctx.tax.quote({
          amount: quoted.net,
          currency: current.currency,
          ...customerTaxBasis(customer),
          productId,
          idempotencyKey: `subscription:${id}:change:${productId}:${quoted.seats ?? '-'}:${quoted.net}`,
        })
      : null;

  const after = await transaction(ctx.db, async (tx) => {
    await lockSubscription(tx.prisma, id);
    const row = (await findSubscription(tx.prisma, id))!;
    if (!isChangeable(row)) throw new AppError('AlreadyCanceledSubscription');
    assertCaughtUpWithClock(row);
    const at = subscriptionNow(row);
    const plan = planProductChange(row, product, behavior, at, target.seats);
    // Another change landed between the quote and the lock: this one was priced (and taxed) for a
    // plan that is no longer the subscription's.
    if (plan.seats !== quoted.seats || (plan.net > 0 && !taxQuote && quoted.behavior === 'invoice')) {
      throw new AppError('Conflict', 'The subscription changed meanwhile: read it again and retry.');
    }
    // The clock moved a little between the quote and the lock: the quoted rate applies to what is billed.
    const tax =
      taxQuote && quoted.net > 0 && plan.net > 0 ? shareOf(taxQuote.amount, plan.net, quoted.net) : 0;
    const creditsTaken = await applyPlan(tx, row, product!, plan, at, tax, customer);
    // Its metered prices, and so subscription.meters, may be others now.
    await markCustomerMetersStale(tx.prisma, [row.customerId]);
    const updated = await updateSubscriptionRow(tx.prisma, id, {
      productId: product!.id,
      seats: plan.seats,
      // The new plan's meter cycle from now on (meter-cycles.ts: what was billed is never again).
      ...meterCycleColumnsOf(product!),
      amount: plan.newAmount,
      periodBilled: plan.ledger.billed,
      periodUsed: plan.ledger.used,
      periodLedgerSince: plan.ledger.since,
      // A new interval starts a new period, whose credits nothing has taken yet.
      periodMeterCredits: plan.intervalChange ? {} : creditsTaken,
      // A change made now replaces the one waiting for the period's end.
      ...NO_PENDING_UPDATE,
      ...(plan.intervalChange
        ? {
            recurringInterval: product!.recurringInterval!,
            recurringIntervalCount: product!.recurringIntervalCount ?? 1,
            billingAnchor: at,
            periodIndexBase: row.currentPeriodIndex + 1,
            currentPeriodIndex: row.currentPeriodIndex + 1,
            currentPeriodStart: plan.period.start,
            currentPeriodEnd: plan.period.end,
          }
        : {}),
    });
    if (product!.id !== row.productId) {
      await recordSubscriptionProduct(tx.prisma, {
        subscriptionId: id,
        productId: product!.id,
        productName: product!.name,
        since: at,
      });
    }
    await recordSubscriptionChange(ctx, tx, row, updated, at);
    return updated;
  });
  await ctx.workflows.signalChanged(id);
  return subscriptionView(after, ctx.publicUrl);
}

/**
 * The period's usage so far that the new plan will not bill at its renewal (a metered price it
 * drops, or every one when the change restarts the period): billed with the next renewal instead.
 * `creditsTaken`: the period's meter credits once that usage took its part (even when it bills
 * nothing), which the renewal does not offer again.
 */
async function droppedUsage(
  sql: SqlClient,
  row: SubscriptionRow,
  plan: PlanChangePlan,
  at: Date,
  productName: string,
): Promise<{ lines: BillingLine[]; creditsTaken: PeriodMeterCredits }> {
  const kept = new Set(plan.intervalChange ? [] : plan.prices.map((price) => price.productPriceId));
  const { usage, creditsTaken } = await measureMeteredUsage(
    sql,
    row,
    at,
    (productPriceId) => !kept.has(productPriceId),
  );
  const lines = usage
    .filter(({ line }) => line.amount > 0)
    .map(({ line }) => ({ ...line, label: `${line.label}, used before the change to ${productName}` }));
  return { lines, creditsTaken };
}

export async function applyPlan(
  tx: Tx,
  row: SubscriptionRow,
  product: ProductRow,
  plan: PlanChangePlan,
  at: Date,
  taxAmount: number,
  customer: Awaited<ReturnType<typeof findLiveCustomer>>,
): Promise<PeriodMeterCredits> {
  const dropped = await droppedUsage(tx.sql, row, plan, at, product.name);
  for (const line of dropped.lines) {
    await insertPendingItem(tx.sql, {
      subscriptionId: row.id,
      label: line.label,
      amount: line.amount,
      productPriceId: line.productPriceId,
      createdAt: at,
    });
  }
  await replaceSubscriptionPrices(tx.prisma, row.id, plan.prices, at);
  if (plan.behavior === 'prorate') {
    for (const line of plan.lines) {
      await insertPendingItem(tx.sql, {
        subscriptionId: row.id,
        label: line.label,
        amount: line.amount,
        productPriceId: line.productPriceId,
        createdAt: at,
      });
    }
    return dropped.creditsTaken;
  }
  if (plan.net <= 0) {
    // A downgrade billed now: its credit waits for the next order instead of a negative charge.
    if (plan.net < 0) {
      await insertPendingItem(tx.sql, {
        subscriptionId: row.id,
        label: `Credit from the change to ${product.name}`,
        amount: plan.net,
        createdAt: at,
      });
    }
    return dropped.creditsTaken;
  }
  await createSubscriptionOrder(
    tx,
    {
      organizationId: row.organizationId,
      subscriptionId: row.id,
      customerId: row.customerId,
      productId: product.id,
      discountId: null,
      billingReason: 'subscription_update',
      currency: row.currency,
      seats: plan.seats,
      items: plan.lines,
      subtotalAmount: plan.net,
      discountAmount: 0,
      netAmount: plan.net,
      taxAmount,
      billingName: customer?.name ?? null,
      billingAddress: customer?.billingAddress ?? null,
      metadata: row.metadata,
      requestKey: `subscription:${row.id}:change:${randomUUID()}`,
      at,
    },
    { customer: row.customer, product, discount: null, subscription: row },
  );
  return dropped.creditsTaken;
}

/** What `changeSubscriptionProduct` would do now, without doing it (the dashboard's confirmation). */
export async function previewProductChange(
  ctx: Pick<PlanChangeContext, 'db'>,
  current: SubscriptionRow,
  input: ProrationPreviewRequest,
): Promise<ProrationPreview> {
  if (!isChangeable(current)) throw new AppError('AlreadyCanceledSubscription');
  const organization = await findOrganizationById(ctx.db.sql, current.organizationId);
  const behavior = requestedBehavior(input.proration_behavior, organization);
  const product = await findProduct(ctx.db, input.product_id, [current.organizationId]);
  const at = subscriptionNow(current);
  if (behavior === 'next_period') return previewNextPeriodChange(current, product, at);
  const plan = planProductChange(current, product, behavior, at);
  const usage = (await droppedUsage(ctx.db.sql, current, plan, at, product!.name)).lines;
  const usageTotal = usage.reduce((sum, line) => sum + line.amount, 0);
  const dueNow = plan.behavior === 'invoice' ? Math.max(plan.net, 0) : 0;
  return {
    proration_behavior: behavior === 'reset' ? 'reset' : plan.behavior,
    applies_at: at.toISOString(),
    currency: current.currency,
    lines: [...plan.lines, ...usage].map(({ label, amount }) => ({ label, amount })),
    amount_due_now: dueNow,
    amount_carried_to_next_invoice:
      (plan.behavior === 'invoice' ? Math.min(plan.net, 0) : plan.net) + usageTotal,
    new_amount: plan.newAmount,
    recurring_interval: product!.recurringInterval as RecurringInterval,
    recurring_interval_count: plan.count,
    current_period_end: plan.period.end.toISOString(),
    price_schedule: scheduleAfterChange(current, plan, product!.recurringInterval as RecurringInterval, at),
    ...benefitsOfChange(current.product, product!),
  };
}

/**
 * A change at the period's end: nothing billed or credited now; the renewal bills the new plan's
 * fees (the old plan's usage of the period with them) and its periods follow from there.
 */
function previewNextPeriodChange(
  row: SubscriptionRow,
  product: ProductRow | null,
  at: Date,
): ProrationPreview {
  const plan = planProductChange(row, product, 'prorate', at);
  const interval = product!.recurringInterval as RecurringInterval;
  const schedule = priceSchedule({
    pricing: { ...planPricingOf(row), fees: plan.prices.reduce((sum, price) => sum + price.amount, 0) },
    periods: plan.intervalChange
      ? { interval, anchor: row.currentPeriodEnd, index: 0, count: plan.count }
      : {
          interval,
          anchor: row.billingAnchor,
          index: row.currentPeriodIndex + 1 - row.periodIndexBase,
          count: row.recurringIntervalCount,
        },
    currentAmount: plan.newAmount,
    renews: true,
  }).map(pricePhaseView);
  return {
    proration_behavior: 'next_period',
    applies_at: row.currentPeriodEnd.toISOString(),
    currency: row.currency,
    lines: [],
    amount_due_now: 0,
    amount_carried_to_next_invoice: 0,
    new_amount: plan.newAmount,
    recurring_interval: interval,
    recurring_interval_count: plan.count,
    current_period_end: row.currentPeriodEnd.toISOString(),
    price_schedule: schedule,
    ...benefitsOfChange(row.product, product!),
  };
}

/**
 * The behavior a change uses: the one asked for, else the organization's default. `reset` only
 * where the organization turned it on (`feature_settings.reset_proration_behavior_enabled`).
 */
function requestedBehavior(
  asked: RequestedBehavior | null | undefined,
  organization: { prorationBehavior: string; resetProrationBehaviorEnabled: boolean } | null,
): RequestedBehavior {
  const behavior = asked ?? (organization?.prorationBehavior as RequestedBehavior | undefined) ?? 'prorate';
  if (behavior === 'reset' && !organization?.resetProrationBehaviorEnabled) {
    throw new InvalidFieldError(
      ['body', 'proration_behavior'],
      "The 'reset' proration behavior is not enabled for this organization.",
    );
  }
  return behavior;
}

/** What the plan costs once changed: the new fees, the discount it keeps, the periods it then has. */
function scheduleAfterChange(
  row: SubscriptionRow,
  plan: PlanChangePlan,
  interval: RecurringInterval,
  at: Date,
): PricePhaseWire[] {
  return priceSchedule({
    pricing: { ...planPricingOf(row), fees: plan.prices.reduce((sum, price) => sum + price.amount, 0) },
    // An interval change restarts the periods now (`changeSubscriptionProduct`).
    periods: plan.intervalChange
      ? { interval, anchor: at, index: 0, count: plan.count }
      : {
          interval,
          anchor: row.billingAnchor,
          index: row.currentPeriodIndex - row.periodIndexBase,
          count: row.recurringIntervalCount,
        },
    currentAmount: plan.newAmount,
    renews: true,
  }).map(pricePhaseView);
}

type PlanBenefits = Pick<ProductRow, 'benefits'>;

/** The benefits the change gives and takes away, as the preview names them. */
function benefitsOfChange(current: PlanBenefits, next: PlanBenefits) {
  const named = (product: PlanBenefits) =>
    product.benefits.map(({ benefit }) => ({
      id: benefit.id,
      type: benefit.type as BenefitType,
      description: benefit.description,
    }));
  const { gained, lost } = benefitChanges(named(current), named(next));
  return { benefits_gained: gained, benefits_lost: lost };
}
