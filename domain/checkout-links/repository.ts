import type { Db } from '../../infra/db.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { productInclude } from '../products/repository.js';

type Client = Db | Prisma.TransactionClient;

export const checkoutLinkInclude = {
  products: { orderBy: { order: 'asc' }, include: { product: { include: productInclude } } },
  discount: { include: { products: { include: { product: true } } } },
} as const satisfies Prisma.CheckoutLinkInclude;

const live = { deletedAt: null };

export function findLiveCheckoutLink(db: Client, id: string) {
  return db.checkoutLink.findFirst({ where: { id, ...live }, include: checkoutLinkInclude });
}

export function findLiveCheckoutLinkBySecret(db: Client, clientSecret: string) {
  return db.checkoutLink.findFirst({ where: { clientSecret, ...live }, include: checkoutLinkInclude });
}

export function listLiveCheckoutLinks(
  db: Db,
  where: Prisma.CheckoutLinkWhereInput,
  orderBy: Prisma.CheckoutLinkOrderByWithRelationInput[],
  page: { skip: number; take: number },
) {
  const filter = { ...where, ...live };
  return db.$transaction([
    db.checkoutLink.findMany({ where: filter, orderBy, include: checkoutLinkInclude, ...page }),
    db.checkoutLink.count({ where: filter }),
  ]);
}

export function insertCheckoutLink(
  tx: Prisma.TransactionClient,
  data: Prisma.CheckoutLinkUncheckedCreateInput,
) {
  return tx.checkoutLink.create({ data });
}

export function updateCheckoutLinkRow(
  tx: Prisma.TransactionClient,
  id: string,
  data: Prisma.CheckoutLinkUncheckedUpdateInput,
) {
  return tx.checkoutLink.update({ where: { id }, data });
}

export async function replaceLinkProducts(
  tx: Prisma.TransactionClient,
  checkoutLinkId: string,
  productIds: string[],
) {
  await tx.checkoutLinkProduct.deleteMany({ where: { checkoutLinkId } });
  await tx.checkoutLinkProduct.createMany({
    data: productIds.map((productId, order) => ({ checkoutLinkId, productId, order })),
  });
}

export type CheckoutLinkRow = NonNullable<Awaited<ReturnType<typeof findLiveCheckoutLink>>>;

/** The link's checkouts counted, and the orders they made summed, by the database. */
export async function checkoutLinkTotals(db: Db, organizationId: string, checkoutLinkId: string) {
  const [checkouts, revenue] = await Promise.all([
    db.sql.query<{ visits: number; conversions: number }>(
      `SELECT count(*)::int AS visits, (count(*) FILTER (WHERE status = 'succeeded'))::int AS conversions
       FROM checkouts WHERE organization_id = $1::uuid AND checkout_link_id = $2::uuid`,
      [organizationId, checkoutLinkId],
    ),
    // bigint sums: a busy link's total may outgrow an int.
    db.sql.query<{ currency: string; amount: string }>(
      `SELECT o.currency, sum(o.net_amount::bigint - o.refunded_amount::bigint)::text AS amount
       FROM orders o JOIN checkouts c ON c.id = o.checkout_id
       WHERE c.organization_id = $1::uuid AND c.checkout_link_id = $2::uuid
         AND o.organization_id = $1::uuid AND o.status <> 'pending'
       GROUP BY o.currency ORDER BY o.currency`,
      [organizationId, checkoutLinkId],
    ),
  ]);
  return {
    visits: checkouts.rows[0]!.visits,
    conversions: checkouts.rows[0]!.conversions,
    revenue: revenue.rows.map((row) => ({ currency: row.currency, amount: Number(row.amount) })),
  };
}
