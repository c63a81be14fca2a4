import { randomUUID } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../infra/db.js';

// Rows the metrics count, written straight to the tables with the times a test chooses (a year of
// history cannot be bought through the API in a test): orders, subscriptions, checkouts, customers
// and refunds of one organization's catalog. Shared by the metrics' integration and browser tests.

export type MetricsCatalog = {
  organizationId: string;
  oneTime: { productId: string; priceId: string };
  monthly: { productId: string; priceId: string };
  yearly: { productId: string; priceId: string };
};

async function createPricedProduct(
  db: Db,
  organizationId: string,
  price: { amount: number; currency: string; recurringInterval: 'month' | 'year' | null },
) {
  const product = await db.product.create({
    data: {
      organizationId,
      name: `${price.recurringInterval ?? 'one-time'} ${randomUUID().slice(0, 8)}`,
      recurringInterval: price.recurringInterval,
      prices: {
        create: {
          organizationId,
          amountType: 'fixed',
          type: price.recurringInterval ? 'recurring' : 'one_time',
          recurringInterval: price.recurringInterval,
          priceCurrency: price.currency,
          priceAmount: price.amount,
        },
      },
    },
    include: { prices: true },
  });
  return { productId: product.id, priceId: product.prices[0]!.id };
}

/** A one-time product and a monthly and a yearly plan, priced in `currency`. */
export async function createMetricsCatalog(
  db: Db,
  organizationId: string,
  currency = 'usd',
): Promise<MetricsCatalog> {
  return {
    organizationId,
    oneTime: await createPricedProduct(db, organizationId, {
      amount: 2500,
      currency,
      recurringInterval: null,
    }),
    monthly: await createPricedProduct(db, organizationId, {
      amount: 1500,
      currency,
      recurringInterval: 'month',
    }),
    yearly: await createPricedProduct(db, organizationId, {
      amount: 10_000,
      currency,
      recurringInterval: 'year',
    }),
  };
}

export function seedCustomer(
  db: Db,
  organizationId: string,
  overrides: Partial<Prisma.CustomerUncheckedCreateInput> = {},
) {
  return db.customer.create({
    data: { organizationId, email: `buyer-${randomUUID()}@example.test`, ...overrides },
  });
}

/** A paid order of `netAmount` before tax, with `taxAmount` on top. */
export function seedOrder(
  db: Db,
  input: Pick<Prisma.OrderUncheckedCreateInput, 'organizationId' | 'customerId' | 'productId' | 'createdAt'> &
    Partial<Prisma.OrderUncheckedCreateInput> & { netAmount: number },
) {
  const taxAmount = input.taxAmount ?? 0;
  return db.order.create({
    data: {
      status: 'paid',
      subtotalAmount: input.netAmount,
      discountAmount: 0,
      totalAmount: input.netAmount + taxAmount,
      currency: 'usd',
      billingReason: 'purchase',
      productName: 'Seeded product',
      ...input,
      taxAmount,
    },
  });
}

/** A subscription started at `startedAt` (null: never started, as an incomplete one). */
export function seedSubscription(
  db: Db,
  input: Pick<
    Prisma.SubscriptionUncheckedCreateInput,
    'organizationId' | 'customerId' | 'productId' | 'amount' | 'recurringInterval' | 'startedAt'
  > &
    Partial<Prisma.SubscriptionUncheckedCreateInput>,
) {
  const start = input.startedAt ?? new Date('2025-01-01T00:00:00Z');
  return db.subscription.create({
    data: {
      status: input.startedAt ? (input.endedAt ? 'canceled' : 'active') : 'incomplete',
      currency: 'usd',
      billingAnchor: start,
      currentPeriodStart: start,
      currentPeriodEnd: start,
      periodLedgerSince: start,
      paymentProcessor: 'sandbox',
      createdAt: start,
      ...input,
    },
  });
}

export function seedCheckout(
  db: Db,
  catalog: MetricsCatalog,
  input: Partial<Prisma.CheckoutUncheckedCreateInput> & { createdAt: Date },
) {
  const productId = input.productId ?? catalog.oneTime.productId;
  return db.checkout.create({
    data: {
      organizationId: catalog.organizationId,
      clientSecret: `checkout-secret-${randomUUID()}`,
      expiresAt: new Date(input.createdAt.getTime() + 3_600_000),
      productIds: [productId],
      productId,
      productPriceId: catalog.oneTime.priceId,
      currency: 'usd',
      amount: 2500,
      discountAmount: 0,
      netAmount: 2500,
      totalAmount: 2500,
      ...input,
    },
  });
}

export function seedRefund(
  db: Db,
  input: Pick<
    Prisma.RefundUncheckedCreateInput,
    'organizationId' | 'orderId' | 'customerId' | 'amount' | 'createdAt'
  > &
    Partial<Prisma.RefundUncheckedCreateInput>,
) {
  return db.refund.create({
    data: { status: 'succeeded', reason: 'customer_request', taxAmount: 0, currency: 'usd', ...input },
  });
}

/**
 * An ingested event, at the time a test chooses (a user event unless `source` says otherwise),
 * with its name's event type as ingestion makes it.
 */
export async function seedEvent(
  db: Db,
  input: Pick<Prisma.EventUncheckedCreateInput, 'organizationId' | 'name' | 'timestamp'> &
    Partial<Prisma.EventUncheckedCreateInput>,
) {
  const event = await db.event.create({ data: { source: 'user', metadata: {}, ...input } });
  if (event.source === 'user') {
    await db.eventType.upsert({
      where: { organizationId_name: { organizationId: event.organizationId, name: event.name } },
      create: { organizationId: event.organizationId, name: event.name, label: event.name },
      update: {},
    });
  }
  return event;
}
