import { z } from 'zod';
import {
  customerCreateSchema,
  customerExportQuerySchema,
  customerExternalIdParamsSchema,
  customerIdParamsSchema,
  customerListQuerySchema,
  customerSchema,
  customerSummarySchema,
  customerTimelineSchema,
  customerUpdateExternalSchema,
  customerUpdateSchema,
} from '../../domain/customers/schemas.js';
import { exportCustomers, findCustomerFor, listCustomers } from '../../domain/customers/service.js';
import { customerStateSchema } from '../../domain/customer-state/schemas.js';
import {
  createCustomer,
  deleteCustomer,
  getCustomerState,
  getCustomerSummary,
  updateCustomer,
} from '../../domain/customer-state/service.js';
import { customerView } from '../../domain/customers/views.js';
import { listResourceSchema, pageQuerySchema } from '../../domain/platform/schemas.js';
import { customerPaymentMethodSchema } from '../../domain/payment-methods/schemas.js';
import { listCustomerPaymentMethods } from '../../domain/payment-methods/service.js';
import type { Db } from '../../infra/db.js';
import { streamCsv } from '../http/csv.js';
import { getCustomerTimeline } from '../../domain/customer-timeline/service.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'customers', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerCustomerOperations(api: OperationRegistry, { db }: { db: Db }) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/',
      operationId: 'customers:list',
      summary: 'List customers',
      query: customerListQuerySchema,
      response: listResourceSchema(customerSchema),
    },
    async ({ query, caller }) => listCustomers(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/customers/',
      operationId: 'customers:create',
      summary: 'Create a customer',
      body: customerCreateSchema,
      response: customerSchema,
    },
    async ({ body, caller }) => createCustomer(db, caller, body),
  );

  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/export',
      operationId: 'customers:export',
      summary: 'Export customers as CSV',
      extension:
        "Tollgate extension, not in Polar: the customers the list's filters and sorting keep, every page, as CSV.",
      query: customerExportQuerySchema,
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => streamCsv(res, exportCustomers(db, caller, query), 'customers.csv'),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/{id}/summary',
      operationId: 'customers:summary',
      summary: 'What a customer brought in and holds',
      extension:
        'Tollgate extension, not in Polar: the number of orders, the lifetime value (net amounts of paid orders less refunds, per currency, excluding tax) and the number of subscriptions of a customer.',
      params: customerIdParamsSchema,
      response: customerSummarySchema,
    },
    async ({ params, caller }) => getCustomerSummary(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/{id}/payment-methods',
      operationId: 'customers:list_payment_methods',
      summary: "List a customer's saved payment methods, the default first",
      params: customerIdParamsSchema,
      query: pageQuerySchema,
      response: listResourceSchema(customerPaymentMethodSchema),
    },
    async ({ params, query, caller }) => listCustomerPaymentMethods(db, caller, { id: params.id }, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/external/{external_id}/payment-methods',
      operationId: 'customers:list_payment_methods_external',
      summary: "List a customer's saved payment methods by external id, the default first",
      params: customerExternalIdParamsSchema,
      query: pageQuerySchema,
      response: listResourceSchema(customerPaymentMethodSchema),
    },
    async ({ params, query, caller }) =>
      listCustomerPaymentMethods(db, caller, { externalId: params.external_id }, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/customers/{id}/timeline',
      operationId: 'customers:timeline',
      summary: 'What happened to a customer, newest first',
      extension:
        "Tollgate extension, not in Polar: the last 100 of a customer's orders, refunds, subscription starts, cancellations and ends, and benefits granted and revoked, newest first.",
      params: customerIdParamsSchema,
      response: customerTimelineSchema,
    },
    async ({ params, caller }) => getCustomerTimeline(db, caller, params.id),
  );

  // External first: `/customers/external/state` must not read as the state of a customer with id "external".
  for (const by of ['external', 'id'] as const) {
    const byId = by === 'id';
    const path = byId ? '/customers/{id}' : '/customers/external/{external_id}';
    const params = byId ? customerIdParamsSchema : customerExternalIdParamsSchema;
    const suffix = byId ? '' : '_external';
    const refOf = (values: Record<string, string>) =>
      byId ? { id: values.id! } : { externalId: values.external_id! };
    const which = byId ? 'by id' : 'by external id';

    api.add(
      {
        ...common,
        method: 'get',
        path,
        operationId: `customers:get${suffix}`,
        summary: `Get a customer ${which}`,
        params,
        response: customerSchema,
      },
      async ({ params: values, caller }) => customerView(await findCustomerFor(db, caller, refOf(values))),
    );
    api.add(
      {
        ...common,
        method: 'patch',
        path,
        operationId: `customers:update${suffix}`,
        summary: `Update a customer ${which}`,
        params,
        body: byId ? customerUpdateSchema : customerUpdateExternalSchema,
        response: customerSchema,
      },
      async ({ params: values, body, caller }) => updateCustomer(db, caller, refOf(values), body),
    );
    api.add(
      {
        ...common,
        method: 'delete',
        path,
        operationId: `customers:delete${suffix}`,
        summary: `Delete a customer ${which}`,
        params,
        status: 204,
      },
      async ({ params: values, caller }) => {
        await deleteCustomer(db, caller, refOf(values));
      },
    );
    api.add(
      {
        ...common,
        method: 'get',
        path: `${path}/state`,
        operationId: `customers:get_state${suffix}`,
        summary: `Get a customer's state ${which}`,
        params,
        response: customerStateSchema,
      },
      async ({ params: values, caller }) => getCustomerState(db, caller, refOf(values)),
    );
  }
}
