// The signed-in customer's orders (Polar's portal `orders`).
import { z } from 'zod';
import {
  customerOrderConfirmPaymentSchema,
  customerOrderInvoiceSchema,
  customerOrderListQuerySchema,
  customerOrderPaymentConfirmationSchema,
  customerOrderPaymentStatusSchema,
  customerOrderSchema,
  customerOrderUpdateSchema,
} from '../../../domain/customer-portal/schemas.js';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { orderReceiptSchema } from '../../../domain/orders/schemas.js';
import {
  generatePortalInvoice,
  getPortalOrder,
  listPortalOrders,
  portalInvoice,
  portalReceipt,
  updatePortalOrder,
} from '../../../domain/customer-portal/orders.js';
import { idParamsSchema, listResourceSchema } from '../../../domain/platform/schemas.js';
import {
  confirmCustomerOrderPayment,
  customerOrderPaymentStatus,
} from '../../../domain/subscriptions/customer-payments.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

/**
 * The signed-in customer's orders: list, read, billing details, invoice, and paying one that
 * waits for them (Polar's confirm-payment and payment-status). Registered after the portal's
 * authentication, like the rest of the portal.
 */
export function registerPortalOrderOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/orders/',
      operationId: 'customer_portal:orders:list',
      summary: "List the customer's orders",
      tag,
      query: customerOrderListQuerySchema,
      response: listResourceSchema(customerOrderSchema),
    },
    ({ customer, query }) => listPortalOrders(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/orders/{id}',
      operationId: 'customer_portal:orders:get',
      summary: 'Get an order',
      tag,
      params: idParamsSchema,
      response: customerOrderSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalOrder(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/orders/{id}',
      operationId: 'customer_portal:orders:update',
      summary: "Update an order's billing details",
      tag,
      params: idParamsSchema,
      body: customerOrderUpdateSchema,
      response: customerOrderSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params, body }) => updatePortalOrder(ctx, customer, params.id, body),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/orders/{id}/invoice',
      operationId: 'customer_portal:orders:generate_invoice',
      summary: "Generate an order's invoice",
      tag,
      params: idParamsSchema,
      status: 202,
      response: z.object({}),
      errors: ['ResourceNotFound', 'InvoiceAlreadyExists', 'MissingInvoiceBillingDetails', 'NotPaidOrder'],
    },
    async ({ customer, params }) => {
      await generatePortalInvoice(ctx, customer, params.id);
      return {};
    },
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/orders/{id}/invoice',
      operationId: 'customer_portal:orders:invoice',
      summary: "A link to an order's invoice",
      tag,
      params: idParamsSchema,
      response: customerOrderInvoiceSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => portalInvoice(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/orders/{id}/receipt',
      operationId: 'customer_portal:orders:receipt',
      summary: "A link to a paid order's receipt (PDF)",
      tag,
      params: idParamsSchema,
      response: orderReceiptSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => portalReceipt(ctx, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/orders/{id}/payment-status',
      operationId: 'customer_portal:orders:get_payment_status',
      summary: "How an order's latest payment stands",
      tag,
      params: idParamsSchema,
      response: customerOrderPaymentStatusSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => customerOrderPaymentStatus(ctx.db, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/orders/{id}/confirm-payment',
      operationId: 'customer_portal:orders:confirm_retry_payment',
      // The plan's unpaid order, once tried: with the customer present their bank may ask them
      // to authenticate (`requires_action` and the client secret its page needs).
      summary: 'Pay an unpaid order of a subscription now, with a saved card or a new one',
      tag,
      params: idParamsSchema,
      body: customerOrderConfirmPaymentSchema,
      status: 200,
      response: customerOrderPaymentConfirmationSchema,
      errors: [
        'ResourceNotFound',
        'PaymentAlreadyInProgress',
        'OrderNotEligibleForRetry',
        'ManualRetryLimitExceeded',
        'ServiceUnavailable',
      ],
    },
    ({ customer, params, body }) =>
      confirmCustomerOrderPayment(ctx.customerPayments, customer, params.id, body),
  );
}
