import { customerMeterListQuerySchema, customerMeterSchema } from '../../domain/customer-meters/schemas.js';
import { getCustomerMeter, listCustomerMeters } from '../../domain/customer-meters/service.js';
import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'customer_meters', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerCustomerMeterOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customer-meters/',
      operationId: 'customer_meters:list',
      summary: "List customer meters: each customer's use of each meter since its last reset, and credits",
      query: customerMeterListQuerySchema,
      response: listResourceSchema(customerMeterSchema),
    },
    async ({ query, caller }) => listCustomerMeters(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customer-meters/{id}',
      operationId: 'customer_meters:get',
      summary: 'Get a customer meter',
      params: idParamsSchema,
      response: customerMeterSchema,
    },
    async ({ params, caller }) => getCustomerMeter(db, caller, params.id),
  );
}
