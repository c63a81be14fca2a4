import type { Db } from '../../infra/db.js';

// Each query filters by organization_id first: the (organization_id, created_at) index of each
// table bounds the scan to the organization's rows, and an id is found through the primary key.

/**
 * A part of the text, in any case. Prisma hands `contains` to ILIKE as it is, so LIKE's wildcards
 * and its escape character are escaped: a search for "%" finds a "%", not every row.
 */
const contains = (text: string) => ({
  contains: text.replace(/[\\%_]/g, (character) => `\\${character}`),
  mode: 'insensitive' as const,
});

/** Live customers whose id is `id`, or whose email or name contains `text`, or external id is it. */
export function findCustomers(db: Db, organizationId: string, text: string, id: string | null, take: number) {
  return db.customer.findMany({
    where: {
      organizationId,
      deletedAt: null,
      OR: [
        ...(id ? [{ id }] : []),
        { email: contains(text) },
        { name: contains(text) },
        { externalId: text },
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take,
    select: { id: true, email: true, name: true, createdAt: true },
  });
}

/**
 * Orders whose id is `id`, or whose order number (`orderNumber`: the id's first eight hex digits)
 * is `number`, or invoice number is `text`, or whose customer's email or name contains it. An order
 * number is a range of the primary key: UUIDs sort by their bytes, the first four are the number.
 */
export function findOrders(
  db: Db,
  organizationId: string,
  text: string,
  ids: { id: string | null; number: string | null },
  take: number,
) {
  const { id, number } = ids;
  return db.order.findMany({
    where: {
      organizationId,
      OR: [
        ...(id ? [{ id }] : []),
        ...(number
          ? [
              {
                id: {
                  gte: `${number}-0000-0000-0000-000000000000`,
                  lte: `${number}-ffff-ffff-ffff-ffffffffffff`,
                },
              },
            ]
          : []),
        { invoiceNumber: text },
        { customer: { is: { email: contains(text) } } },
        { customer: { is: { name: contains(text) } } },
        { billingName: contains(text) },
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take,
    select: {
      id: true,
      createdAt: true,
      status: true,
      totalAmount: true,
      currency: true,
      customer: { select: { email: true } },
      product: { select: { name: true } },
    },
  });
}

/** Products (archived ones too) whose id is `id` or whose name contains `text`. */
export function findProducts(db: Db, organizationId: string, text: string, id: string | null, take: number) {
  return db.product.findMany({
    where: { organizationId, OR: [...(id ? [{ id }] : []), { name: contains(text) }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take,
    select: { id: true, name: true, isArchived: true, createdAt: true },
  });
}
