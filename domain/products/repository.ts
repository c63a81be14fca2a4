import type { Db, SqlClient } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { AMOUNT_TYPE_SORT_ORDER } from '../prices/registry.js';
import type { BenefitNote } from '../emails/rules.js';

type Client = Db | Prisma.TransactionClient;

/** Everything a product's wire shape shows: current prices (with meters), media, custom fields. */
export const productInclude = {
  prices: {
    where: { isArchived: false },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include: { meter: { select: { id: true, name: true } } },
  },
  medias: { orderBy: { order: 'asc' }, include: { file: true } },
  customFields: { orderBy: { order: 'asc' }, include: { customField: true } },
  benefits: {
    where: { benefit: { deletedAt: null } },
    orderBy: { order: 'asc' },
    include: { benefit: true },
  },
  // Whether anything refers to it (`is_deletable`): one row of each is enough to know.
  orders: { select: { id: true }, take: 1 },
  subscriptions: { select: { id: true }, take: 1 },
  checkouts: { select: { id: true }, take: 1 },
  discounts: { where: { discount: { deletedAt: null } }, select: { discountId: true }, take: 1 },
  checkoutLinks: { where: { checkoutLink: { deletedAt: null } }, select: { checkoutLinkId: true }, take: 1 },
} satisfies Prisma.ProductInclude;

/**
 * Deletes a product with its prices, media, fields, benefit links and the links of deleted
 * checkout links and discounts (they cascade). The caller has checked that nothing else refers to
 * it: orders, subscriptions and checkouts keep their product (`Restrict`).
 */
export function deleteProductRow(tx: Prisma.TransactionClient, id: string) {
  return tx.product.delete({ where: { id } });
}

export function findProduct(db: Client, id: string, organizationIds: string[]) {
  return db.product.findFirst({
    where: { id, organizationId: { in: organizationIds } },
    include: productInclude,
  });
}

/** A current (not archived) price of one of these organizations. */
export function findCurrentPrice(db: Client, id: string, organizationIds: string[]) {
  return db.productPrice.findFirst({
    where: { id, organizationId: { in: organizationIds }, isArchived: false },
  });
}

/** Which of these products of the organization are current (not archived). */
export async function findLiveProductIds(
  db: Client,
  organizationId: string,
  ids: string[],
): Promise<string[]> {
  const rows = await db.product.findMany({
    where: { id: { in: ids }, organizationId, isArchived: false },
    select: { id: true },
  });
  return rows.map(({ id }) => id);
}

/** Each product's organization and whether it is archived, among these organizations. */
export function findProductOwners(db: Client, ids: string[], organizationIds: string[]) {
  return db.product.findMany({
    where: { id: { in: ids }, organizationId: { in: organizationIds } },
    select: { id: true, organizationId: true, isArchived: true },
  });
}

/** The custom fields a product asks for, by slug, with their types. */
export async function findProductCustomFieldTypes(db: Client, organizationId: string, productId: string) {
  const product = await db.product.findFirst({
    where: { id: productId, organizationId },
    select: { customFields: { select: { customField: { select: { slug: true, type: true } } } } },
  });
  return (product?.customFields ?? []).map(({ customField }) => customField);
}

/** A product's name, archived or not. */
export async function findProductName(sql: SqlClient, id: string): Promise<string | null> {
  const { rows } = await sql.query<{ name: string }>(`SELECT p.name FROM products p WHERE p.id = $1::uuid`, [
    id,
  ]);
  return rows[0]?.name ?? null;
}

export function findProductsByIds(db: Client, ids: string[]) {
  return db.product.findMany({ where: { id: { in: ids } }, include: productInclude });
}

/** Serializes concurrent updates of one product (its price set is checked, then changed). */
export async function lockProduct(tx: Prisma.TransactionClient, id: string) {
  await tx.$queryRaw`SELECT id FROM products WHERE id = ${id}::uuid FOR UPDATE`;
}

export function insertProduct(tx: Prisma.TransactionClient, data: Prisma.ProductUncheckedCreateInput) {
  return tx.product.create({ data });
}

export function updateProductRow(
  tx: Prisma.TransactionClient,
  id: string,
  organizationId: string,
  data: Prisma.ProductUpdateInput,
) {
  return tx.product.update({ where: { id, organizationId }, data });
}

export function insertPrices(tx: Prisma.TransactionClient, data: Prisma.ProductPriceCreateManyInput[]) {
  return tx.productPrice.createMany({ data });
}

export function findCurrentPrices(tx: Prisma.TransactionClient, productId: string) {
  return tx.productPrice.findMany({ where: { productId, isArchived: false } });
}

/** Archives the product's current prices that are not kept; archived prices are never changed again. */
export function archivePricesExcept(
  tx: Prisma.TransactionClient,
  productId: string,
  keptIds: string[],
  at: Date,
) {
  return tx.productPrice.updateMany({
    where: { productId, isArchived: false, id: { notIn: keptIds } },
    data: { isArchived: true, modifiedAt: at },
  });
}

export function findPrice(db: Client, id: string, organizationIds: string[]) {
  return db.productPrice.findFirst({
    where: { id, organizationId: { in: organizationIds } },
    include: { meter: { select: { id: true, name: true } } },
  });
}

/** A current (not archived) price of the product. */
export function findCurrentPriceOfProduct(db: Client, productId: string, id: string) {
  return db.productPrice.findFirst({
    where: { id, productId, isArchived: false },
    include: { meter: { select: { id: true, name: true } } },
  });
}

export async function replaceMedias(tx: Prisma.TransactionClient, productId: string, fileIds: string[]) {
  await tx.productMedia.deleteMany({ where: { productId } });
  await tx.productMedia.createMany({ data: fileIds.map((fileId, order) => ({ productId, fileId, order })) });
}

export async function replaceAttachedCustomFields(
  tx: Prisma.TransactionClient,
  productId: string,
  fields: { customFieldId: string; required: boolean }[],
) {
  await tx.productCustomField.deleteMany({ where: { productId } });
  await tx.productCustomField.createMany({
    data: fields.map((field, order) => ({ productId, order, ...field })),
  });
}

export type ProductListFilter = {
  organizationIds: string[];
  benefitIds?: string[];
  ids?: string[];
  query?: string;
  isArchived?: boolean;
  isRecurring?: boolean;
};

export type ProductSort = {
  field: 'created_at' | 'name' | 'price_amount_type' | 'price_amount';
  direction: 'asc' | 'desc';
};

// Sorting by price looks at the product's first current price, as Polar does.
const SORT_EXPRESSIONS: Record<ProductSort['field'], Prisma.Sql> = {
  created_at: Prisma.sql`p.created_at`,
  name: Prisma.sql`p.name`,
  price_amount_type: Prisma.sql`CASE fp.amount_type ${Prisma.join(
    AMOUNT_TYPE_SORT_ORDER.map((type, rank) => Prisma.sql`WHEN ${type} THEN ${rank}::int`),
    ' ',
  )} END`,
  price_amount: Prisma.sql`COALESCE(fp.price_amount, fp.minimum_amount, 0)`,
};

function whereSql(filter: ProductListFilter): Prisma.Sql {
  const conditions = [Prisma.sql`p.organization_id = ANY(${filter.organizationIds}::uuid[])`];
  if (filter.ids) conditions.push(Prisma.sql`p.id = ANY(${filter.ids}::uuid[])`);
  if (filter.benefitIds) {
    conditions.push(
      Prisma.sql`EXISTS (SELECT 1 FROM product_benefits pb WHERE pb.product_id = p.id AND pb.benefit_id = ANY(${filter.benefitIds}::uuid[]))`,
    );
  }
  if (filter.query)
    conditions.push(Prisma.sql`p.name ILIKE ${`%${filter.query.replace(/[\\%_]/g, '\\$&')}%`}`);
  if (filter.isArchived !== undefined) conditions.push(Prisma.sql`p.is_archived = ${filter.isArchived}`);
  if (filter.isRecurring !== undefined) {
    conditions.push(
      filter.isRecurring
        ? Prisma.sql`p.recurring_interval IS NOT NULL`
        : Prisma.sql`p.recurring_interval IS NULL`,
    );
  }
  return Prisma.join(conditions, ' AND ');
}

/** One page of product ids in the asked order, and how many products match. */
export async function listProductIds(
  db: Db,
  filter: ProductListFilter,
  sorting: ProductSort[],
  page: { skip: number; take: number },
): Promise<[string[], number]> {
  const order = Prisma.join(
    [
      ...sorting.map(
        ({ field, direction }) =>
          Prisma.sql`${SORT_EXPRESSIONS[field]} ${direction === 'desc' ? Prisma.sql`DESC` : Prisma.sql`ASC`}`,
      ),
      Prisma.sql`p.id ASC`,
    ],
    ', ',
  );
  const where = whereSql(filter);
  const [rows, counted] = await db.$transaction([
    db.$queryRaw<{ id: string }[]>`
      SELECT p.id FROM products p
      LEFT JOIN LATERAL (
        SELECT pp.amount_type, pp.price_amount, pp.minimum_amount FROM product_prices pp
        WHERE pp.product_id = p.id AND NOT pp.is_archived
        ORDER BY pp.created_at ASC, pp.id ASC LIMIT 1
      ) fp ON true
      WHERE ${where}
      ORDER BY ${order}
      LIMIT ${page.take} OFFSET ${page.skip}`,
    db.$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM products p WHERE ${where}`,
  ]);
  return [rows.map((row) => row.id), Number(counted[0]?.count ?? 0)];
}

export type ProductRow = NonNullable<Awaited<ReturnType<typeof findProduct>>>;
export type PriceRow = NonNullable<Awaited<ReturnType<typeof findPrice>>>;

/** Replaces a product's benefits with `benefitIds`, in that order. */
export async function replaceBenefits(tx: Prisma.TransactionClient, productId: string, benefitIds: string[]) {
  await tx.productBenefit.deleteMany({ where: { productId } });
  await tx.productBenefit.createMany({
    data: benefitIds.map((benefitId, order) => ({ productId, benefitId, order })),
  });
}

export function findProductIdsOfOrganization(db: Client, organizationId: string, ids: string[]) {
  return db.product.findMany({ where: { organizationId, id: { in: ids } }, select: { id: true } });
}

/** The live benefits each of these products gives, in the product's order. */
export async function benefitIdsOfProducts(
  sql: SqlClient,
  productIds: string[],
): Promise<Map<string, string[]>> {
  const { rows } = await sql.query<{ productId: string; benefitId: string }>(
    `SELECT pb.product_id AS "productId", pb.benefit_id AS "benefitId"
     FROM product_benefits pb JOIN benefits b ON b.id = pb.benefit_id AND b.deleted_at IS NULL
     WHERE pb.product_id = ANY($1::uuid[]) ORDER BY pb.product_id, pb."order"`,
    [[...new Set(productIds)]],
  );
  const byProduct = new Map<string, string[]>();
  for (const row of rows)
    byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row.benefitId]);
  return byProduct;
}

/** The notes of a product's custom benefits, in the product's order; benefits without one are left out. */
export async function customBenefitNotes(sql: SqlClient, productId: string): Promise<BenefitNote[]> {
  const { rows } = await sql.query<BenefitNote>(
    `SELECT b.description, b.properties->>'note' AS note
     FROM product_benefits pb JOIN benefits b ON b.id = pb.benefit_id
     WHERE pb.product_id = $1::uuid AND b.type = 'custom' AND b.deleted_at IS NULL
       AND coalesce(btrim(b.properties->>'note'), '') <> ''
     ORDER BY pb."order"`,
    [productId],
  );
  return rows;
}

/** What a seller offers now: live products, newest first (the portal's plan choice). */
export function findLiveProductsOfOrganization(db: Client, organizationId: string) {
  return db.product.findMany({
    where: { organizationId, isArchived: false },
    include: productInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 100,
  });
}

// Who bought a product, read (never written) when its benefits change: the orders and subscriptions
// belong to the processes above.

/** Every customer who bought the product once (its benefits changed). */
export async function purchaserIdsOfProduct(
  tx: Prisma.TransactionClient,
  productId: string,
): Promise<string[]> {
  const rows = await tx.order.findMany({
    where: { productId, subscriptionId: null },
    select: { customerId: true },
    distinct: ['customerId'],
  });
  return rows.map((row) => row.customerId);
}

/** Every customer subscribed to the product, ended plans excepted (its benefits changed). */
export async function subscriberIdsOfProduct(
  tx: Prisma.TransactionClient,
  productId: string,
): Promise<string[]> {
  const rows = await tx.subscription.findMany({
    where: { productId, endedAt: null },
    select: { customerId: true },
    distinct: ['customerId'],
  });
  return rows.map((row) => row.customerId);
}
