import { customFieldView } from '../custom-fields/views.js';
import { benefitView } from '../benefits/views.js';
import { fileView } from '../files/views.js';
import { readMetadata } from '../metadata/rules.js';
import type { PriceRow, ProductRow } from './repository.js';
import type { SubscriptionRecord } from '../subscriptions/repository.js';
import { priceType } from '../prices/registry.js';
import { trialView } from './trials.js';
import { storedMeterCycle } from './meter-cycles.js';
import { productPriceSchema, productSchema, type Product, type ProductPrice } from './schemas.js';

export function priceView(row: PriceRow): ProductPrice {
  return productPriceSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    is_archived: row.isArchived,
    product_id: row.productId,
    type: row.type,
    recurring_interval: row.recurringInterval,
    source: 'catalog',
    tax_behavior: null,
    amount_type: row.amountType,
    ...priceType(row.amountType).view(row),
  });
}

/** A product's renewal, trial and visibility as every shape of it shows them (@polar-sh/sdk@0.48.1). */
export function productTermsView(
  recurringInterval: string | null,
  recurringIntervalCount?: number | null,
  trial: { trialInterval: string | null; trialIntervalCount: number | null } = {
    trialInterval: null,
    trialIntervalCount: null,
  },
  meter: { meterInterval?: string | null; meterIntervalCount?: number | null } = {},
) {
  const meterCycle = storedMeterCycle({
    meterInterval: meter.meterInterval ?? null,
    meterIntervalCount: meter.meterIntervalCount ?? null,
  });
  return {
    recurring_interval_count: recurringInterval === null ? null : (recurringIntervalCount ?? 1),
    meter_interval: meterCycle?.interval ?? null,
    meter_interval_count: meterCycle?.count ?? null,
    ...trialView(trial),
    visibility: 'public',
  } as const;
}

/**
 * Polar deletes only a product nothing refers to (its Python SDK 1.0.2's `products.delete`): no
 * order, subscription or checkout was made of it, and no live discount or checkout link names it.
 * One in use can only be archived.
 */
export function isProductDeletable(
  row: Pick<ProductRow, 'orders' | 'subscriptions' | 'checkouts' | 'discounts' | 'checkoutLinks'>,
): boolean {
  return [row.orders, row.subscriptions, row.checkouts, row.discounts, row.checkoutLinks].every(
    (uses) => uses.length === 0,
  );
}

export function productView(row: ProductRow, publicUrl: string): Product {
  return productSchema.parse({
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    id: row.id,
    name: row.name,
    description: row.description,
    recurring_interval: row.recurringInterval,
    is_recurring: row.recurringInterval !== null,
    is_archived: row.isArchived,
    ...productTermsView(row.recurringInterval, row.recurringIntervalCount, row, row),
    organization_id: row.organizationId,
    metadata: readMetadata(row.metadata),
    is_deletable: isProductDeletable(row),
    prices: row.prices.map(priceView),
    benefits: row.benefits.map((link) => benefitView(link.benefit)),
    medias: row.medias.map((media) => fileView(media.file, publicUrl)),
    attached_custom_fields: row.customFields.map((attached) => ({
      custom_field_id: attached.customFieldId,
      custom_field: customFieldView(attached.customField),
      order: attached.order,
      required: attached.required,
    })),
    pause_keeps_benefits: row.pauseKeepsBenefits,
  });
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/**
 * A subscription's own wire fields (`orderSubscriptionSchema`): the order's subscription, customer
 * state's, and the start of the whole Subscription.
 */
export function subscriptionOwnFields(row: SubscriptionRecord) {
  return {
    created_at: row.createdAt.toISOString(),
    modified_at: iso(row.modifiedAt),
    id: row.id,
    amount: row.amount,
    currency: row.currency,
    recurring_interval: row.recurringInterval,
    recurring_interval_count: row.recurringIntervalCount,
    status: row.status,
    current_period_start: row.currentPeriodStart.toISOString(),
    // An ended subscription shows the end of its last period: when it ended, if that was sooner.
    current_period_end: (row.endedAt && row.endedAt < row.currentPeriodEnd
      ? row.endedAt
      : row.currentPeriodEnd
    ).toISOString(),
    trial_start: iso(row.trialStart),
    trial_end: iso(row.trialEnd),
    // The meter cycle's dates take the cadence of the subscription's periods: the Subscription
    // itself shows them (domain/subscriptions/views.ts); an order's and customer state's copy, null.
    current_meter_period_start: null,
    current_meter_period_end: null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    pause_at_period_end: row.pauseAtPeriodEnd,
    paused_at: iso(row.pausedAt),
    resumes_at: iso(row.resumesAt),
    seats: row.seats,
    units: null,
    canceled_at: iso(row.canceledAt),
    started_at: iso(row.startedAt),
    ends_at: iso(row.endsAt),
    past_due_at: iso(row.pastDueAt),
    ended_at: iso(row.endedAt),
    customer_id: row.customerId,
    product_id: row.productId,
    discount_id: row.discountId,
    checkout_id: row.checkoutId,
    customer_cancellation_reason: row.customerCancellationReason,
    customer_cancellation_comment: row.customerCancellationComment,
    metadata: readMetadata(row.metadata),
    custom_field_data: row.customFieldData,
  };
}
