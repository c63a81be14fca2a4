import type { Db } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';

type Client = Db | Prisma.TransactionClient;

const include = { products: { include: { product: true }, orderBy: { productId: 'asc' } } } as const;
const live = { deletedAt: null };

export function findLiveDiscount(db: Client, id: string) {
  return db.discount.findFirst({ where: { id, ...live }, include });
}

export function listLiveDiscounts(
  db: Db,
  where: Prisma.DiscountWhereInput,
  orderBy: Prisma.DiscountOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const filter = { ...where, ...live };
  return db.$transaction([
    db.discount.findMany({ where: filter, orderBy, include, ...page }),
    db.discount.count({ where: filter }),
  ]);
}

export function insertDiscount(tx: Prisma.TransactionClient, data: Prisma.DiscountUncheckedCreateInput) {
  return tx.discount.create({ data, include });
}

export function updateDiscountRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.DiscountUpdateInput,
) {
  return tx.discount.update({ where: { id }, data, include });
}

export async function replaceDiscountProducts(
  tx: Prisma.TransactionClient,
  discountId: string,
  productIds: string[],
) {
  await tx.discountProduct.deleteMany({ where: { discountId } });
  await tx.discountProduct.createMany({ data: productIds.map((productId) => ({ discountId, productId })) });
}

/** True when PostgreSQL refused a second live discount with the same code. */
export function isDuplicateCode(error: unknown): boolean {
  return (
    error instanceof Prisma.PrismaClientKnownRequestError &&
    (error.code === 'P2002' || (error.code === 'P2010' && error.message.includes('23505'))) &&
    `${JSON.stringify(error.meta ?? {})}${error.message}`.includes('code')
  );
}

export type DiscountRow = NonNullable<Awaited<ReturnType<typeof findLiveDiscount>>>;

/** A live discount of the organization, with the products it is limited to. */
export function findDiscountOfOrganization(db: Client, organizationId: string, id: string) {
  return db.discount.findFirst({
    where: { id, organizationId, deletedAt: null },
    include: { products: { select: { productId: true } } },
  });
}

/** Live discount of the organization by code, case-insensitively. */
export function findDiscountByCode(db: Client, organizationId: string, code: string) {
  return db.discount.findFirst({
    where: { organizationId, deletedAt: null, code: { equals: code, mode: 'insensitive' } },
    include: { products: { select: { productId: true } } },
  });
}

export type DiscountWithProducts = NonNullable<Awaited<ReturnType<typeof findDiscountOfOrganization>>>;

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

/** Gives back a redemption (a payment that failed, a code swapped after a failure). */
export async function releaseDiscount(tx: Prisma.TransactionClient, discountId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE discounts SET redemptions_count = redemptions_count - 1
    WHERE id = ${discountId}::uuid AND redemptions_count > 0`;
}
