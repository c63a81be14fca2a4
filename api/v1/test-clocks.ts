import { requestKeyOf } from '../http/idempotency.js';
import { idParamsSchema, listResourceSchema } from '../../domain/platform/schemas.js';
import {
  testClockAdvanceSchema,
  testClockAttachSchema,
  testClockCreateSchema,
  testClockListQuerySchema,
  testClockSchema,
} from '../../domain/test-clocks/schemas.js';
import {
  advanceTestClock,
  attachTestClockCustomer,
  createTestClock,
  deleteTestClock,
  getTestClock,
  listTestClocks,
  type TestClocksContext,
} from '../../domain/test-clocks/service.js';
import type { OperationRegistry } from '../http/operations.js';

const extension =
  'Tollgate extension, not in Polar: sandbox only (403 on a live server). The subscriptions of the customers attached to a test clock follow its frozen time.';

// Scoped like subscriptions: a clock is a way of driving them.
const common = {
  tag: 'test-clocks',
  scope: 'subscriptions',
  extension,
  errors: ['NotPermitted', 'ResourceNotFound'],
} as const;

export function registerTestClockOperations(api: OperationRegistry, ctx: TestClocksContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/test-clocks/',
      operationId: 'test_clocks:list',
      summary: 'List test clocks',
      query: testClockListQuerySchema,
      response: listResourceSchema(testClockSchema),
    },
    async ({ query, caller }) => listTestClocks(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/test-clocks/',
      operationId: 'test_clocks:create',
      summary: 'Create a test clock frozen at a time',
      body: testClockCreateSchema,
      response: testClockSchema,
    },
    async ({ body, caller }) => createTestClock(ctx, caller, body),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/test-clocks/{id}',
      operationId: 'test_clocks:get',
      summary: 'Get a test clock (status `advancing` until its subscriptions caught up)',
      params: idParamsSchema,
      response: testClockSchema,
    },
    async ({ params, caller }) => getTestClock(ctx, caller, params.id),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'Conflict'],
      method: 'post',
      path: '/test-clocks/{id}/advance',
      operationId: 'test_clocks:advance',
      summary: 'Advance a test clock; its subscriptions live through the time that passed',
      params: idParamsSchema,
      body: testClockAdvanceSchema,
      response: testClockSchema,
      status: 202,
    },
    async ({ params, body, caller, res }) =>
      advanceTestClock(ctx, caller, params.id, body, requestKeyOf(res)),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/test-clocks/{id}/customers',
      operationId: 'test_clocks:attach_customer',
      summary: 'Attach a customer without subscriptions to a test clock',
      params: idParamsSchema,
      body: testClockAttachSchema,
      response: testClockSchema,
      status: 200,
    },
    async ({ params, body, caller }) => attachTestClockCustomer(ctx, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'Conflict'],
      method: 'delete',
      path: '/test-clocks/{id}',
      operationId: 'test_clocks:delete',
      summary: 'Delete a test clock whose customers have no running subscription',
      params: idParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => deleteTestClock(ctx, caller, params.id),
  );
}
