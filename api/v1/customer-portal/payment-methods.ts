// The signed-in customer's saved cards (Polar's portal `customers/me/payment-methods`): list, save,
// make the default (our extension), delete. The rules are in domain/payment-methods/.
import { randomUUID } from 'node:crypto';
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import {
  paymentMethodConfirmSchema,
  paymentMethodCreateResponseSchema,
  paymentMethodCreateSchema,
  paymentMethodParamsSchema,
  paymentMethodSchema,
  paymentMethodUpdateSchema,
} from '../../../domain/payment-methods/schemas.js';
import {
  addPortalPaymentMethod,
  confirmPortalPaymentMethod,
  deletePortalPaymentMethod,
  listPortalPaymentMethods,
  setDefaultPortalPaymentMethod,
} from '../../../domain/payment-methods/service.js';
import { listResourceSchema, pageQuerySchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalPaymentMethodOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/customers/me/payment-methods',
      operationId: 'customer_portal:customers:get_payment_methods',
      summary: "List the customer's saved cards, the default first",
      tag,
      query: pageQuerySchema,
      response: listResourceSchema(paymentMethodSchema),
    },
    ({ customer, query }) => listPortalPaymentMethods(ctx.paymentMethods, customer, query),
  );
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/customers/me/payment-methods',
      operationId: 'customer_portal:customers:add_payment_method',
      // With `set_default` (or no default yet) every plan of the customer renews on the new card,
      // and a plan in dunning is charged again at once.
      // A card whose bank asks the buyer to confirm it answers `requires_action` with the client
      // secret of the bank's page; `confirm` saves it afterwards.
      summary: 'Save a card; as the default, every plan renews on it',
      tag,
      body: paymentMethodCreateSchema,
      status: 201,
      response: paymentMethodCreateResponseSchema,
      errors: ['ServiceUnavailable'],
    },
    ({ customer, body }) => addPortalPaymentMethod(ctx.paymentMethods, customer, body, randomUUID()),
  );
  // Before `{id}`: Express would take `confirm` for a card's id otherwise.
  api.addForCustomer(
    {
      method: 'post',
      path: '/customer-portal/customers/me/payment-methods/confirm',
      operationId: 'customer_portal:customers:confirm_payment_method',
      summary: "Save a card once the buyer confirmed it on their bank's page (3-D Secure)",
      tag,
      body: paymentMethodConfirmSchema,
      status: 201,
      response: paymentMethodCreateResponseSchema,
      errors: ['ServiceUnavailable'],
    },
    ({ customer, body }) => confirmPortalPaymentMethod(ctx.paymentMethods, customer, body, randomUUID()),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/customers/me/payment-methods/{id}',
      operationId: 'customer_portal:customers:update_payment_method',
      summary: 'Make a saved card the default',
      extension:
        'Tollgate extension, not in Polar: the card becomes the default and every plan of the customer renews on it.',
      tag,
      params: paymentMethodParamsSchema,
      body: paymentMethodUpdateSchema,
      response: paymentMethodSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => setDefaultPortalPaymentMethod(ctx.paymentMethods, customer, params.id),
  );
  api.addForCustomer(
    {
      method: 'delete',
      path: '/customer-portal/customers/me/payment-methods/{id}',
      operationId: 'customer_portal:customers:delete_payment_method',
      // Plans renewing on it move to the default card; the only card of a plan that still renews
      // cannot be deleted (422).
      summary: 'Delete a saved card (never the only card a plan renews on)',
      tag,
      params: paymentMethodParamsSchema,
      status: 204,
      errors: ['ResourceNotFound'],
    },
    async ({ customer, params }) => {
      await deletePortalPaymentMethod(ctx.paymentMethods, customer, params.id);
    },
  );
}
