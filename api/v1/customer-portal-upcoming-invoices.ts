import { idParamsSchema } from '../../domain/platform/schemas.js';
import { upcomingInvoiceSchema } from '../../domain/subscriptions/schemas.js';
import {
  getCustomerUpcomingInvoice,
  type UpcomingInvoiceContext,
} from '../../domain/subscriptions/upcoming-invoice.js';
import type { OperationRegistry } from '../http/operations.js';

/** The buyer's estimate of their own plan's next renewal. Registered after the portal's authentication. */
export function registerCustomerUpcomingInvoiceOperations(
  api: OperationRegistry,
  ctx: UpcomingInvoiceContext,
) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/subscriptions/{id}/upcoming-invoice',
      operationId: 'customer_portal:subscriptions:upcoming_invoice',
      summary: 'Estimate the next renewal order of a subscription',
      extension:
        "Tollgate extension, not in Polar: the customer's own plan's next renewal order, priced now exactly as the renewal will price it (fees, usage less credits, discount, pending proration lines, tax), for the portal's usage page.",
      tag: 'customer_portal',
      params: idParamsSchema,
      response: upcomingInvoiceSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getCustomerUpcomingInvoice(ctx, customer, params.id),
  );
}
