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

export function findProductIdsOfOrganization(db: Client, organizationId: string, ids: string[]) {
  return db.product.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
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
