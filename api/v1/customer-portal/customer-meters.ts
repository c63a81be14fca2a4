// The signed-in customer's meters (Polar's portal `customer_meters`): their usage and credits.
import type { PortalContext } from '../../../domain/customer-portal/context.js';
import { getPortalMeter, listPortalMeters } from '../../../domain/customer-portal/customer-meters.js';
import {
  customerCustomerMeterListQuerySchema,
  customerCustomerMeterSchema,
} from '../../../domain/customer-portal/schemas.js';
import { idParamsSchema, listResourceSchema } from '../../../domain/platform/schemas.js';
import type { OperationRegistry } from '../../http/operations.js';
import { PORTAL_TAG as tag } from './tag.js';

export function registerPortalCustomerMeterOperations(api: OperationRegistry, ctx: PortalContext) {
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/meters/',
      operationId: 'customer_portal:customer_meters:list',
      summary: "List the customer's meters",
      tag,
      query: customerCustomerMeterListQuerySchema,
      response: listResourceSchema(customerCustomerMeterSchema),
    },
    ({ customer, query }) => listPortalMeters(ctx, customer, query),
  );
  api.addForCustomer(
    {
      method: 'get',
      path: '/customer-portal/meters/{id}',
      operationId: 'customer_portal:customer_meters:get',
      summary: 'Get a meter of the customer',
      tag,
      params: idParamsSchema,
      response: customerCustomerMeterSchema,
      errors: ['ResourceNotFound'],
    },
    ({ customer, params }) => getPortalMeter(ctx, customer, params.id),
  );
}
