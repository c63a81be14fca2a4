import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { productInclude } from '../products/repository.js';

type Client = Db | Prisma.TransactionClient;

/** Everything a checkout's wire shape shows. */
export const checkoutInclude = {
  product: { include: productInclude },
  productPrice: { include: { meter: { select: { id: true, name: true } } } },
  discount: true,
  organization: true,
} as const satisfies Prisma.CheckoutInclude;

export type CheckoutRow = Prisma.CheckoutGetPayload<{ include: typeof checkoutInclude }>;

export function findCheckout(db: Client, id: string) {
  return db.checkout.findUnique({ where: { id }, include: checkoutInclude });
}

export function findCheckoutBySecret(db: Client, clientSecret: string) {
  return db.checkout.findUnique({ where: { clientSecret }, include: checkoutInclude });
}

/** What the checkout's workflow decides its next step from. */
export function findCheckoutProgress(db: Client, id: string) {
  return db.checkout.findUnique({
    where: { id },
    select: {
      status: true,
      expiresAt: true,
      paymentAttempt: true,
      paymentId: true,
      paymentClientSecret: true,
    },
  });
}

export async function findEmbedOrigin(db: Client, clientSecret: string): Promise<string | null> {
  const row = await db.checkout.findUnique({ where: { clientSecret }, select: { embedOrigin: true } });
  return row?.embedOrigin ?? null;
}

/** Serializes confirmations, updates and workflow steps of one checkout. */
export async function lockCheckout(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM checkouts WHERE id = ${id}::uuid FOR UPDATE`;
}

export function listCheckoutRows(
  db: Db,
  where: Prisma.CheckoutWhereInput,
  orderBy: Prisma.CheckoutOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  return db.$transaction([
    db.checkout.findMany({ where, orderBy, include: checkoutInclude, ...page }),
    db.checkout.count({ where }),
  ]);
}

export function insertCheckout(tx: Prisma.TransactionClient, data: Prisma.CheckoutUncheckedCreateInput) {
  return tx.checkout.create({ data, include: checkoutInclude });
}

export function updateCheckoutRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.CheckoutUncheckedUpdateInput,
) {
  return tx.checkout.update({
    where: { id },
    data: { ...data, modifiedAt: new Date() },
    include: checkoutInclude,
  });
}

/**
 * Takes one of the discount's redemptions if any is left. The check and the increment are one
 * statement, so concurrent confirmations can never redeem more than `max_redemptions`.
 */
export async function redeemDiscount(tx: Prisma.TransactionClient, discountId: string): Promise<boolean> {
  const taken = await tx.$executeRaw`
    UPDATE discounts SET redemptions_count = redemptions_count + 1
    WHERE id = ${discountId}::uuid AND deleted_at IS NULL
      AND (max_redemptions IS NULL OR redemptions_count < max_redemptions)`;
  return taken === 1;
}

export async function releaseDiscount(tx: Prisma.TransactionClient, discountId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE discounts SET redemptions_count = redemptions_count - 1
    WHERE id = ${discountId}::uuid AND redemptions_count > 0`;
}

/** Live discount of the organization by code, case-insensitively. */
export function findDiscountByCode(db: Client, organizationId: string, code: string) {
  return db.discount.findFirst({
    where: { organizationId, deletedAt: null, code: { equals: code, mode: 'insensitive' } },
    include: { products: { select: { productId: true } } },
  });
}

export function findDiscountOfOrganization(db: Client, organizationId: string, id: string) {
  return db.discount.findFirst({
    where: { id, organizationId, deletedAt: null },
    include: { products: { select: { productId: true } } },
  });
}

export type DiscountWithProducts = NonNullable<Awaited<ReturnType<typeof findDiscountOfOrganization>>>;

/**
 * Checkouts still governed by a workflow (open, confirmed or failed) and older than `before`: the
 * reconciler starts the workflow of any whose start was lost (the API died right after the commit).
 */
export function findUnfinishedCheckouts(db: Db, before: Date, limit: number) {
  return db.checkout.findMany({
    where: { status: { in: ['open', 'confirmed', 'failed'] }, createdAt: { lt: before } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: limit,
  });
}
