// The signed-in customer reads and updates themself (Polar's portal `customers/me`).
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { getPortalCustomer, updatePortalCustomer } from '../../../domain/customer-portal/customer.js';
import {
  customerPortalCustomerSchema,
  customerPortalCustomerUpdateSchema,
} from '../../../domain/customer-portal/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalCustomerOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/customers/me',
      operationId: 'customer_portal:customers:get',
      summary: 'The signed-in customer',
      tag,
      response: customerPortalCustomerSchema,
    },
    ({ customer }) => getPortalCustomer(ctx, customer),
  );
  api.addForCustomer(
    {
      method: 'patch',
      path: '/customer-portal/customers/me',
      operationId: 'customer_portal:customers:update',
      summary: 'Update the signed-in customer',
      tag,
      body: customerPortalCustomerUpdateSchema,
      response: customerPortalCustomerSchema,
    },
    ({ customer, body }) => updatePortalCustomer(ctx, customer, body),
  );
}
