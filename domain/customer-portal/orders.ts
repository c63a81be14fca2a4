// The signed-in customer's orders (Polar's portal `order`): each with its product and seller, and
// the payment waiting for the customer, if any. Paying that order is in subscriptions/customer-payments.ts.

import type { CustomerCaller } from '../customer-sessions/rules.js';
import type { OrderRow } from '../orders/repository.js';
import {
  applyOrderUpdate,
  findOrderOfCustomer,
  generateInvoiceOf,
  invoiceUrlOf,
  receiptUrlOf,
  listOrderRowsOfCustomer,
} from '../orders/service.js';
import { orderView } from '../orders/views.js';
import type { OrderUpdate } from '../orders/schemas.js';
import { paginated } from '../platform/rules.js';
import { findProductsByIds } from '../products/repository.js';
import { productView } from '../products/views.js';
import { paymentConfirmationsOf } from '../subscriptions/customer-payments.js';
import { organizationWire, type PortalContext } from './context.js';
import { customerOrderSchema, type CustomerOrder, type CustomerOrderListQuery } from './schemas.js';

async function productsWithOrganization(ctx: PortalContext, organizationId: string, productIds: string[]) {
  const organization = await organizationWire(ctx.db, organizationId);
  const rows = await findProductsByIds(ctx.db, [...new Set(productIds)]);
  return new Map(rows.map((row) => [row.id, { ...productView(row, ctx.publicUrl), organization }]));
}

async function customerOrderViews(ctx: PortalContext, customer: CustomerCaller, rows: OrderRow[]) {
  const products = await productsWithOrganization(
    ctx,
    customer.organizationId,
    rows.map((row) => row.productId),
  );
  const pending = rows.filter((row) => row.status === 'pending' && row.subscriptionId);
  const confirmations = await paymentConfirmationsOf(
    ctx.db,
    pending.map((row) => row.subscriptionId!),
  );
  return rows.map((row): CustomerOrder => {
    const waiting = row.subscriptionId ? confirmations.get(row.subscriptionId) : undefined;
    return customerOrderSchema.parse({
      ...orderView(row),
      product: products.get(row.productId),
      payment_confirmation: waiting?.orderId === row.id ? { payment_method_id: waiting.savedCardId } : null,
    });
  });
}

export async function listPortalOrders(
  ctx: PortalContext,
  customer: CustomerCaller,
  query: CustomerOrderListQuery,
) {
  const [rows, total] = await listOrderRowsOfCustomer(ctx.db, customer, query);
  return paginated(await customerOrderViews(ctx, customer, rows), total, query);
}

export async function getPortalOrder(ctx: PortalContext, customer: CustomerCaller, id: string) {
  const [view] = await customerOrderViews(ctx, customer, [await findOrderOfCustomer(ctx.db, customer, id)]);
  return view!;
}

export async function updatePortalOrder(
  ctx: PortalContext,
  customer: CustomerCaller,
  id: string,
  input: OrderUpdate,
): Promise<CustomerOrder> {
  await findOrderOfCustomer(ctx.db, customer, id);
  await applyOrderUpdate(ctx.db, id, input);
  return getPortalOrder(ctx, customer, id);
}

export async function generatePortalInvoice(ctx: PortalContext, customer: CustomerCaller, id: string) {
  await generateInvoiceOf(
    { db: ctx.db, storage: ctx.storage },
    await findOrderOfCustomer(ctx.db, customer, id),
  );
}

export async function portalInvoice(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return invoiceUrlOf({ db: ctx.db, storage: ctx.storage }, await findOrderOfCustomer(ctx.db, customer, id));
}

export async function portalReceipt(ctx: PortalContext, customer: CustomerCaller, id: string) {
  return receiptUrlOf({ db: ctx.db, storage: ctx.storage }, await findOrderOfCustomer(ctx.db, customer, id));
}
