import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../infra/db.js';
import type { SavedPaymentMethod } from '../payments/processor.js';

type Client = Db | Prisma.TransactionClient;

export type PaymentMethodRow = Prisma.CustomerPaymentMethodGetPayload<object>;

const BILLABLE_STATUSES = ['trialing', 'active', 'past_due'];

const live = (customerId: string) => ({ customerId, deletedAt: null });

export function findLivePaymentMethod(db: Client, customerId: string, id: string) {
  return db.customerPaymentMethod.findFirst({ where: { id, ...live(customerId) } });
}

export function livePaymentMethodsOf(db: Client, customerId: string) {
  return db.customerPaymentMethod.findMany({
    where: live(customerId),
    orderBy: [{ isDefault: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
  });
}

export function listPaymentMethodRows(db: Db, customerId: string, page: { skip: number; take: number }) {
  return Promise.all([
    db.customerPaymentMethod.findMany({
      where: live(customerId),
      orderBy: [{ isDefault: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
      ...page,
    }),
    db.customerPaymentMethod.count({ where: live(customerId) }),
  ]);
}

/** Serialises changes to one customer's cards (the default, deletions) under its row lock. */
export async function lockCustomerForPaymentMethods(tx: Prisma.TransactionClient, customerId: string) {
  await tx.$queryRaw`SELECT id FROM customers WHERE id = ${customerId}::uuid FOR UPDATE`;
}

/** Any card, deleted or not: a deleted one's workflow still takes it off the processor. */
export function findPaymentMethod(db: Client, id: string) {
  return db.customerPaymentMethod.findUnique({ where: { id } });
}

/** The processor customer the customer's live cards on this processor are saved on, the default's first. */
export async function processorCustomerIdOfCards(db: Client, customerId: string, processor: string) {
  const card = await db.customerPaymentMethod.findFirst({
    where: { customerId, processor, deletedAt: null },
    orderBy: [{ isDefault: 'desc' }, { createdAt: 'desc' }],
    select: { processorCustomerId: true },
  });
  return card?.processorCustomerId ?? null;
}

/** A card the processor saved for a customer, as it is kept. */
// Read only: a card saved for a customer goes to the processor customer and currency of their
// plans, which the subscriptions domain writes.

/** The processor customer of the customer's latest plan on this processor that has one. */
export async function latestProcessorCustomerIdOf(db: Client, customerId: string, processor: string) {
  const plan = await db.subscription.findFirst({
    where: { customerId, paymentProcessor: processor, processorCustomerId: { not: null } },
    orderBy: { createdAt: 'desc' },
    select: { processorCustomerId: true },
  });
  return plan?.processorCustomerId ?? null;
}

/** The currency of the customer's latest plan that has not ended, if any. */
export async function latestLivePlanCurrencyOf(db: Client, customerId: string) {
  const plan = await db.subscription.findFirst({
    where: { customerId, endedAt: null },
    orderBy: { createdAt: 'desc' },
    select: { currency: true },
  });
  return plan?.currency ?? null;
}

export type SavedCard = {
  organizationId: string;
  customerId: string;
  processor: string;
  saved: SavedPaymentMethod;
  at: Date;
};

/** A card saved again (the same processor method) comes back to life with its details refreshed. */
export function upsertPaymentMethod(tx: Prisma.TransactionClient, input: SavedCard) {
  const details = {
    processorCustomerId: input.saved.processorCustomerId,
    brand: input.saved.summary?.brand ?? null,
    last4: input.saved.summary?.last4 ?? null,
    expMonth: input.saved.expiry?.month ?? null,
    expYear: input.saved.expiry?.year ?? null,
  };
  return tx.customerPaymentMethod.upsert({
    where: {
      customerId_processorPaymentMethodId: {
        customerId: input.customerId,
        processorPaymentMethodId: input.saved.paymentMethodId,
      },
    },
    create: {
      organizationId: input.organizationId,
      customerId: input.customerId,
      processor: input.processor,
      processorPaymentMethodId: input.saved.paymentMethodId,
      type: 'card',
      createdAt: input.at,
      ...details,
    },
    update: { ...details, deletedAt: null, modifiedAt: input.at },
  });
}

/** The partial unique index allows one live default: the old one is cleared first. */
export async function setDefaultPaymentMethod(
  tx: Prisma.TransactionClient,
  customerId: string,
  id: string,
  at: Date,
) {
  await tx.customerPaymentMethod.updateMany({
    where: { ...live(customerId), isDefault: true, id: { not: id } },
    data: { isDefault: false, modifiedAt: at },
  });
  await tx.customerPaymentMethod.update({ where: { id }, data: { isDefault: true, modifiedAt: at } });
}

export function softDeletePaymentMethod(tx: Prisma.TransactionClient, id: string, at: Date) {
  return tx.customerPaymentMethod.update({
    where: { id },
    data: { deletedAt: at, isDefault: false, modifiedAt: at },
  });
}

/** The customer's plans that still renew (and so are charged) on this processor method. */
export function billableSubscriptionsOn(
  db: Client,
  customerId: string,
  processorPaymentMethodIds: string[] | 'any',
  processor: string,
) {
  return db.subscription.findMany({
    where: {
      customerId,
      paymentProcessor: processor,
      status: { in: BILLABLE_STATUSES },
      endedAt: null,
      ...(processorPaymentMethodIds === 'any' ? {} : { paymentMethodId: { in: processorPaymentMethodIds } }),
    },
    select: { id: true, status: true, paymentMethodId: true },
  });
}

/**
 * Points plans at a card. A plan in dunning is tried again at once on it rather than at its next
 * scheduled try (its workflow is woken by the caller after the commit).
 */
export async function moveSubscriptionsToPaymentMethod(
  tx: Prisma.TransactionClient,
  subscriptions: { id: string; status: string }[],
  card: PaymentMethodRow,
  at: Date,
) {
  if (subscriptions.length === 0) return;
  const summary = card.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : undefined;
  await tx.subscription.updateMany({
    where: { id: { in: subscriptions.map((subscription) => subscription.id) } },
    data: {
      paymentMethodId: card.processorPaymentMethodId,
      processorCustomerId: card.processorCustomerId,
      paymentMethod: summary ?? Prisma.DbNull,
      modifiedAt: at,
    },
  });
  const pastDue = subscriptions.filter((subscription) => subscription.status === 'past_due');
  if (pastDue.length > 0) {
    await tx.subscription.updateMany({
      where: { id: { in: pastDue.map((subscription) => subscription.id) } },
      data: { nextAttemptAt: null },
    });
  }
}

/** What the start of a deleted card's workflow tells operators (temporal/entity-directory.ts). */
export function findPaymentMethodForOperators(db: Db, id: string) {
  return db.customerPaymentMethod.findUnique({
    where: { id },
    select: {
      organizationId: true,
      customerId: true,
      customer: { select: { email: true, organization: { select: { name: true } } } },
      brand: true,
      last4: true,
    },
  });
}
