import { transaction, type Db, type Tx } from '../../infra/db.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, assertCanManage, organizationsToList } from '../access/service.js';
import { addressSchema } from '../addresses/schemas.js';
import { recordEvent, recordEvents } from '../webhook-outbox/repository.js';
import { metadataWhere } from '../metadata/rules.js';
import { AppError } from '../platform/errors.js';
import type { FileStorage } from '../files/storage.js';
import { formatInvoiceNumber, invoicePrefixFor } from '../invoices/rules.js';
import { csvLine, pageToSkipTake, paginated, parseSorting } from '../platform/rules.js';
import { orderNumber, statusAfterRefund, taxOfItems } from './rules.js';
import {
  findOrder,
  insertOrder,
  insertOrderWithItems,
  listOrderExportRows,
  listOrderRows,
  lockOrder,
  markOrderPaidIfPending,
  nextInvoiceNumber,
  updateOrderRow,
  type OrderRow,
  type OrderWithItems,
} from './repository.js';
import type { Order, OrderExportQuery, OrderListQuery, OrderUpdate } from './schemas.js';
import type { CustomerOrderListQuery } from '../customer-portal/schemas.js';
import type { CustomerCaller } from '../customer-sessions/rules.js';
import { ORDER_EXPORT_COLUMNS, orderExportRow, orderView } from './views.js';
import { findOrganizationById } from '../organizations/repository.js';

export type PaidPurchase = {
  organizationId: string;
  checkoutId: string;
  customerId: string;
  productId: string;
  productPriceId: string;
  productName: string;
  discountId: string | null;
  currency: string;
  /** The seats bought at a seat-based price. */
  seats?: number | null;
  amount: number;
  discountAmount: number;
  netAmount: number;
  taxAmount: number;
  totalAmount: number;
  billingName: string | null;
  billingAddress: Prisma.InputJsonValue | null;
  metadata: Prisma.InputJsonValue;
  customFieldData: Prisma.InputJsonValue;
  paymentId: string | null;
  /** The plan this order starts, for a checkout of a recurring product. */
  subscriptionId?: string;
  at: Date;
  /** The line's label when it is not the product's name (a trial's "Trial period for …"). */
  itemLabel?: string;
};

/**
 * The order of a paid checkout with its events (`order.created`, then `order.paid`), in the
 * caller's transaction. `checkout_id` is unique, so a second attempt fails instead of doubling it.
 */
export async function createPaidOrder(
  tx: Prisma.TransactionClient,
  purchase: PaidPurchase,
): Promise<OrderRow> {
  const row = await insertOrder(tx, {
    organizationId: purchase.organizationId,
    status: 'paid',
    seats: purchase.seats ?? null,
    subtotalAmount: purchase.amount,
    discountAmount: purchase.discountAmount,
    netAmount: purchase.netAmount,
    taxAmount: purchase.taxAmount,
    totalAmount: purchase.totalAmount,
    currency: purchase.currency,
    billingReason: purchase.subscriptionId ? 'subscription_create' : 'purchase',
    billingName: purchase.billingName,
    billingAddress: purchase.billingAddress ?? Prisma.DbNull,
    customerId: purchase.customerId,
    productId: purchase.productId,
    productName: purchase.productName,
    discountId: purchase.discountId,
    checkoutId: purchase.checkoutId,
    subscriptionId: purchase.subscriptionId ?? null,
    paymentId: purchase.paymentId,
    metadata: purchase.metadata,
    customFieldData: purchase.customFieldData,
    createdAt: purchase.at,
    items: {
      create: [
        {
          label: purchase.itemLabel ?? purchase.productName,
          // Before discount, as Polar's items: the order's discount applies to their sum.
          amount: purchase.amount,
          taxAmount: purchase.taxAmount,
          proration: false,
          productPriceId: purchase.productPriceId,
          createdAt: purchase.at,
        },
      ],
    },
  });
  const order = orderView(row);
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: 'order.created',
    data: order,
    at: purchase.at,
  });
  await recordEvent(tx, {
    organizationId: row.organizationId,
    type: 'order.paid',
    data: order,
    at: purchase.at,
  });
  return row;
}

export type SubscriptionOrder = {
  organizationId: string;
  subscriptionId: string;
  customerId: string;
  productId: string;
  discountId: string | null;
  billingReason: 'subscription_cycle' | 'subscription_update' | 'subscription_meter_cycle';
  currency: string;
  /** The subscription's seats (seat-based prices), null otherwise. */
  seats: number | null;
  items: { label: string; amount: number; proration: boolean; productPriceId: string | null }[];
  subtotalAmount: number;
  discountAmount: number;
  netAmount: number;
  taxAmount: number;
  billingName: string | null;
  billingAddress: Prisma.JsonValue;
  metadata: Prisma.JsonValue;
  /** `subscription:<id>:cycle:<index>`: unique, so a retried step finds its order. */
  requestKey: string;
  at: Date;
};

/**
 * An order a subscription bills (a renewal, a plan change billed now), in the caller's
 * transaction: `pending` until its charge succeeds, or paid at once when there is nothing to
 * charge. Tax is spread over the items in proportion to their amounts.
 */
export async function createSubscriptionOrder(
  tx: Tx,
  order: SubscriptionOrder,
  relations: SubscriptionOrderRelations,
): Promise<OrderRow> {
  const totalAmount = order.netAmount + order.taxAmount;
  const itemTaxes = taxOfItems(
    order.items.map((item) => item.amount),
    order.taxAmount,
  );
  const inserted = await insertOrderWithItems(
    tx.sql,
    {
      organizationId: order.organizationId,
      status: totalAmount > 0 ? 'pending' : 'paid',
      seats: order.seats,
      subtotalAmount: order.subtotalAmount,
      discountAmount: order.discountAmount,
      netAmount: order.netAmount,
      taxAmount: order.taxAmount,
      totalAmount,
      currency: order.currency,
      billingReason: order.billingReason,
      billingName: order.billingName,
      billingAddress: order.billingAddress,
      customerId: order.customerId,
      productId: order.productId,
      productName: relations.product.name,
      discountId: order.discountId,
      subscriptionId: order.subscriptionId,
      requestKey: order.requestKey,
      metadata: order.metadata,
      createdAt: order.at,
    },
    order.items.map((item, index) => ({
      ...item,
      taxAmount: itemTaxes[index]!,
      createdAt: new Date(order.at.getTime() + index),
    })),
  );
  const row = withRelations(inserted, relations);
  const view = orderView(row);
  const event = (type: 'order.created' | 'order.paid') => ({
    organizationId: row.organizationId,
    type,
    data: view,
    at: order.at,
  });
  await recordEvents(tx.sql, [
    event('order.created'),
    ...(row.status === 'paid' ? [event('order.paid')] : []),
  ]);
  return row;
}

/**
 * The rows an order of a subscription refers to, as the subscription's step holds them: its
 * events carry the order's wire shape without reading them again.
 */
export type SubscriptionOrderRelations = Pick<OrderRow, 'customer' | 'product' | 'discount' | 'subscription'>;

const withRelations = (order: OrderWithItems, relations: SubscriptionOrderRelations): OrderRow => ({
  ...order,
  ...relations,
  discount: order.discountId === relations.discount?.id ? relations.discount : null,
});

/** A subscription's pending order paid by `paymentId`, with `order.paid`; a second call changes nothing. */
export async function markSubscriptionOrderPaid(
  tx: Tx,
  order: OrderWithItems,
  relations: SubscriptionOrderRelations,
  paymentId: string | null,
  at: Date,
): Promise<OrderRow | null> {
  const paid = await markOrderPaidIfPending(tx.sql, order.id, paymentId, at);
  if (!paid) return null;
  const row = withRelations({ ...paid, items: order.items }, relations);
  await recordEvents(tx.sql, [
    { organizationId: row.organizationId, type: 'order.paid', data: orderView(row), at },
  ]);
  return row;
}

export async function findOrderFor(db: Db, caller: Caller, id: string): Promise<OrderRow> {
  const row = await findOrder(db, id);
  if (!row || !(await accessibleOrganizationIds(db, caller)).includes(row.organizationId)) {
    throw new AppError('ResourceNotFound', 'Order not found');
  }
  return row;
}

export async function getOrder(db: Db, caller: Caller, id: string): Promise<Order> {
  return orderView(await findOrderFor(db, caller, id));
}

const SORTS: Record<string, (direction: 'asc' | 'desc') => Prisma.OrderOrderByWithRelationInput> = {
  created_at: (direction) => ({ createdAt: direction }),
  amount: (direction) => ({ netAmount: direction }),
  net_amount: (direction) => ({ netAmount: direction }),
  customer: (direction) => ({ customer: { email: direction } }),
  product: (direction) => ({ product: { name: direction } }),
  discount: (direction) => ({ discount: { name: direction } }),
  subscription: (direction) => ({ subscription: { startedAt: direction } }),
};

/** The orders of `organizationIds` the list's filters keep. */
function orderWhere(organizationIds: string[], query: OrderExportQuery): Prisma.OrderWhereInput {
  const where: Prisma.OrderWhereInput = { organizationId: { in: organizationIds } };
  if (query.product_id) where.productId = { in: query.product_id };
  if (query.discount_id) where.discountId = { in: query.discount_id };
  if (query.customer_id) where.customerId = { in: query.customer_id };
  if (query.checkout_id) where.checkoutId = { in: query.checkout_id };
  if (query.subscription_id) where.subscriptionId = { in: query.subscription_id };
  if (query.status) where.status = { in: query.status };
  if (query.created_after || query.created_before) {
    where.createdAt = {
      ...(query.created_after ? { gte: new Date(query.created_after) } : {}),
      ...(query.created_before ? { lt: new Date(query.created_before) } : {}),
    };
  }
  if (query.product_billing_type) {
    const recurring = query.product_billing_type.includes('recurring');
    const oneTime = query.product_billing_type.includes('one_time');
    if (!(recurring && oneTime)) where.product = { recurringInterval: recurring ? { not: null } : null };
  }
  const and: Prisma.OrderWhereInput[] = [];
  if (query.metadata) and.push(...metadataWhere(query.metadata));
  if (query.query) {
    const contains = { contains: query.query, mode: 'insensitive' } as const;
    and.push({
      OR: [
        { customer: { email: contains } },
        { customer: { name: contains } },
        { product: { name: contains } },
      ],
    });
  }
  if (and.length > 0) where.AND = and;
  return where;
}

const orderSorting = (sorting: OrderExportQuery['sorting']) =>
  [
    ...parseSorting<string>(sorting ?? ['-created_at']).map(({ field, direction }) =>
      SORTS[field]!(direction),
    ),
    // Equal keys still page in one order.
    { id: 'asc' },
  ] as Prisma.OrderOrderByWithRelationInput[];

export async function listOrders(db: Db, caller: Caller, query: OrderListQuery) {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const [rows, total] = await listOrderRows(
    db,
    orderWhere(organizationIds, query),
    orderSorting(query.sorting),
    pageToSkipTake(query),
  );
  return paginated(rows.map(orderView), total, query);
}

const EXPORT_PAGE = 500;

/** The list's orders as CSV lines (header first), read a page at a time. */
export async function* exportOrders(db: Db, caller: Caller, query: OrderExportQuery): AsyncGenerator<string> {
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  const where = orderWhere(organizationIds, query);
  const orderBy = orderSorting(query.sorting);
  yield csvLine(ORDER_EXPORT_COLUMNS);
  for (let skip = 0; ; skip += EXPORT_PAGE) {
    const rows = await listOrderExportRows(db, where, orderBy, { skip, take: EXPORT_PAGE });
    for (const row of rows) yield csvLine(orderExportRow(row));
    if (rows.length < EXPORT_PAGE) return;
  }
}

/** Billing name and address, the only fields a seller corrects after the fact (for invoices). */
export async function updateOrder(db: Db, caller: Caller, id: string, input: OrderUpdate): Promise<Order> {
  const current = await findOrderFor(db, caller, id);
  await assertCanManage(db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  return applyOrderUpdate(db, id, input);
}

/** The order's billing details changed (by the seller, or by the buyer in the portal). */
export async function applyOrderUpdate(db: Db, id: string, input: OrderUpdate): Promise<Order> {
  const row = await db.$transaction(async (tx) => {
    await lockOrder(tx, id);
    const updated = await updateOrderRow(tx, id, {
      // An absent field (@polar-sh/sdk@0.48.1 sends only what changes) stays as it is.
      billingName: input.billing_name,
      billingAddress:
        input.billing_address === undefined ? undefined : (input.billing_address ?? Prisma.DbNull),
    });
    await recordEvent(tx, {
      organizationId: updated.organizationId,
      type: 'order.updated',
      data: orderView(updated),
    });
    return updated;
  });
  return orderView(row);
}

/** The order's status once `refundedAmount` of its net amount has been given back. */

export type InvoiceContext = { db: Db; storage: FileStorage; now?: () => Date };

const INVOICE_LINK_TTL_MS = 60 * 60 * 1000;
const invoicePath = (row: { organizationId: string; id: string }) =>
  `invoices/${row.organizationId}/${row.id}.pdf`;

/**
 * Renders the order's invoice as a PDF and stores it. The number is taken (sequential per
 * organization) in a transaction of its own before rendering, so a retry after a crash reuses it
 * instead of skipping one; the invoice counts as generated once its file is stored.
 */
export async function generateInvoice(ctx: InvoiceContext, caller: Caller, id: string): Promise<Order> {
  const current = await findOrderFor(ctx.db, caller, id);
  await assertCanManage(ctx.db, caller, current.organizationId, ORGANIZATION_MANAGERS);
  return generateInvoiceOf(ctx, current);
}

/** Generates the invoice of an order its caller may act on (the seller, or its buyer). */
export async function generateInvoiceOf(ctx: InvoiceContext, current: OrderRow): Promise<Order> {
  const { db } = ctx;
  const { id } = current;
  if (current.status === 'pending') throw new AppError('NotPaidOrder', 'The order is not paid.');
  if (!current.billingName || current.billingAddress === null) {
    throw new AppError(
      'MissingInvoiceBillingDetails',
      'Billing name and address are required to generate an invoice; set them with orders.update.',
    );
  }
  if (current.invoicePath)
    throw new AppError('InvoiceAlreadyExists', 'An invoice already exists for this order.');
  const numbered = await transaction(db, async ({ prisma: tx, sql }) => {
    await lockOrder(tx, id);
    const order = (await findOrder(tx, id))!;
    if (order.invoicePath)
      throw new AppError('InvoiceAlreadyExists', 'An invoice already exists for this order.');
    if (order.invoiceNumber) return order;
    const organization = (await findOrganizationById(sql, order.organizationId))!;
    const sequence = await nextInvoiceNumber(tx, order.organizationId);
    return updateOrderRow(tx, id, {
      invoiceNumber: formatInvoiceNumber(invoicePrefixFor(organization.slug), sequence),
    });
  });
  const pdf = await renderOrderDocument(db, numbered, {
    kind: 'invoice',
    number: numbered.invoiceNumber!,
    issuedAt: ctx.now?.() ?? new Date(),
  });
  await ctx.storage.write({ path: invoicePath(numbered), bytes: pdf, mimeType: 'application/pdf' });
  const row = await db.$transaction(async (tx) => {
    await lockOrder(tx, id);
    const updated = await updateOrderRow(tx, id, { invoicePath: invoicePath(numbered) });
    await recordEvent(tx, {
      organizationId: updated.organizationId,
      type: 'order.updated',
      data: orderView(updated),
    });
    return updated;
  });
  return orderView(row);
}

/** The order as an invoice or a receipt PDF: the same content under its own title and number. */
async function renderOrderDocument(
  db: Db,
  order: OrderRow,
  heading: { kind: 'invoice' | 'receipt'; number: string; issuedAt: Date },
): Promise<Uint8Array> {
  const organization = (await findOrganizationById(db.sql, order.organizationId))!;
  const taxId = order.customer.taxId as [string, string] | null;
  // Loaded with the first document: pdf-lib and its fonts were a sixth of the API's load time (~150
  // of ~1,000 ms), paid at every start and by every test file, most of which render none.
  const { renderInvoicePdf } = await import('../invoices/render.js');
  return renderInvoicePdf({
    ...heading,
    currency: order.currency,
    seller: {
      name: organization.name,
      email: organization.email,
      website: organization.website,
      address: organization.address === null ? null : addressSchema.parse(organization.address),
    },
    buyer: {
      name: order.billingName,
      email: order.customer.email,
      address: order.billingAddress === null ? null : addressSchema.parse(order.billingAddress),
      taxId: taxId ? taxId[0] : null,
    },
    items: order.items.map((item) => ({
      label: item.label,
      amount: item.amount,
      taxAmount: item.taxAmount,
    })),
    subtotalAmount: order.subtotalAmount,
    discount:
      order.discountAmount > 0
        ? { label: order.discount?.name ?? 'Discount', amount: order.discountAmount }
        : null,
    taxAmount: order.taxAmount,
    totalAmount: order.totalAmount,
    orderNumber: orderNumber(order.id),
    timeZone: organization.timeZone,
    paidAt: order.createdAt,
    refundedAmount: order.refundedAmount + order.refundedTaxAmount,
  });
}

const RECEIPT_LINK_TTL_MS = 60 * 60 * 1000;

/**
 * A short-lived download URL of the paid order's receipt (Polar's `orders.receipt`). The receipt is
 * rendered on every request, so it shows the refunds made since; its number is the order's. An
 * order not paid yet has none (404).
 */
export async function receiptUrlOf(ctx: InvoiceContext, order: OrderRow): Promise<{ url: string }> {
  if (order.status === 'pending' || order.status === 'draft' || order.status === 'void') {
    throw new AppError('ResourceNotFound', 'The order is not paid: it has no receipt.');
  }
  const number = orderNumber(order.id);
  const pdf = await renderOrderDocument(ctx.db, order, {
    kind: 'receipt',
    number,
    issuedAt: ctx.now?.() ?? new Date(),
  });
  const path = `receipts/${order.organizationId}/${order.id}.pdf`;
  await ctx.storage.write({ path, bytes: pdf, mimeType: 'application/pdf' });
  return {
    url: await ctx.storage.downloadUrl({
      path,
      filename: `receipt-${number}.pdf`,
      mimeType: 'application/pdf',
      expiresInMs: RECEIPT_LINK_TTL_MS,
    }),
  };
}

export async function orderReceiptUrl(
  ctx: InvoiceContext,
  caller: Caller,
  id: string,
): Promise<{ url: string }> {
  return receiptUrlOf(ctx, await findOrderFor(ctx.db, caller, id));
}

/** A short-lived download URL of the order's invoice; 404 until one was generated. */
export async function orderInvoiceUrl(
  ctx: InvoiceContext,
  caller: Caller,
  id: string,
): Promise<{ url: string }> {
  return invoiceUrlOf(ctx, await findOrderFor(ctx.db, caller, id));
}

export async function invoiceUrlOf(ctx: InvoiceContext, order: OrderRow): Promise<{ url: string }> {
  if (!order.invoicePath || !order.invoiceNumber) {
    throw new AppError('ResourceNotFound', 'No invoice was generated for this order yet.');
  }
  return {
    url: await ctx.storage.downloadUrl({
      path: order.invoicePath,
      filename: `${order.invoiceNumber}.pdf`,
      mimeType: 'application/pdf',
      expiresInMs: INVOICE_LINK_TTL_MS,
    }),
  };
}

/**
 * A refund the processor confirmed: the order's refunded amounts and status move with it, and the
 * seller hears `order.refunded` and `order.updated`. In the refund's transaction, order row locked.
 */
export async function applySucceededRefund(
  tx: Prisma.TransactionClient,
  refund: { orderId: string; amount: number; taxAmount: number },
): Promise<void> {
  const order = (await findOrder(tx, refund.orderId))!;
  const refundedAmount = order.refundedAmount + refund.amount;
  const updated = await updateOrderRow(tx, order.id, {
    refundedAmount,
    refundedTaxAmount: order.refundedTaxAmount + refund.taxAmount,
    status: statusAfterRefund(order.netAmount, refundedAmount),
  });
  const data = orderView(updated);
  await recordEvent(tx, { organizationId: updated.organizationId, type: 'order.refunded', data });
  await recordEvent(tx, { organizationId: updated.organizationId, type: 'order.updated', data });
}

// The customer portal: a customer reads their own orders only, never the seller's drafts: a draft
// is a charge the seller has not made yet, which the customer has nothing to do with until then.

export async function listOrderRowsOfCustomer(
  db: Db,
  customer: CustomerCaller,
  query: CustomerOrderListQuery,
) {
  const where: Prisma.OrderWhereInput = {
    organizationId: customer.organizationId,
    customerId: customer.customerId,
    status: { not: 'draft' },
  };
  if (query.organization_id && ![query.organization_id].flat().includes(customer.organizationId)) {
    where.id = { in: [] };
  }
  if (query.product_id) where.productId = { in: query.product_id };
  if (query.subscription_id) where.subscriptionId = { in: query.subscription_id };
  if (query.product_billing_type) {
    const recurring = query.product_billing_type.includes('recurring');
    const oneTime = query.product_billing_type.includes('one_time');
    if (!(recurring && oneTime)) where.product = { recurringInterval: recurring ? { not: null } : null };
  }
  if (query.query)
    where.product = { ...(where.product as object), name: { contains: query.query, mode: 'insensitive' } };
  const orderBy = parseSorting<string>(query.sorting ?? ['-created_at']).map(({ field, direction }) =>
    SORTS[field]!(direction),
  );
  return listOrderRows(db, where, orderBy, pageToSkipTake(query));
}

export async function findOrderOfCustomer(db: Db, customer: CustomerCaller, id: string): Promise<OrderRow> {
  const row = await findOrder(db, id);
  if (
    !row ||
    row.status === 'draft' ||
    row.customerId !== customer.customerId ||
    row.organizationId !== customer.organizationId
  ) {
    throw new AppError('ResourceNotFound', 'Order not found');
  }
  return row;
}
