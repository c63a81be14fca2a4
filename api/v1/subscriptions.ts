import { once } from 'node:events';
import { z } from 'zod';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import {
  subscriptionIdParamsSchema,
  subscriptionListQuerySchema,
  subscriptionSchema,
} from '../../domain/subscriptions/schemas.js';
import {
  exportSubscriptions,
  getSubscription,
  listSubscriptions,
  type SubscriptionsContext,
} from '../../domain/subscriptions/service.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'subscriptions', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

export function registerSubscriptionOperations(api: OperationRegistry, ctx: SubscriptionsContext) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/',
      operationId: 'subscriptions:list',
      summary: 'List subscriptions',
      query: subscriptionListQuerySchema,
      response: listResourceSchema(subscriptionSchema),
    },
    async ({ query, caller }) => listSubscriptions(ctx, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/export',
      operationId: 'subscriptions:export',
      summary: 'Export subscriptions as CSV',
      query: subscriptionListQuerySchema.pick({ organization_id: true }),
      response: z.string(),
      mediaType: 'text/csv',
    },
    async ({ query, caller, res }) => {
      const lines = exportSubscriptions(ctx, caller, query);
      // The first line is produced before anything is sent, so a refused caller still gets JSON.
      const header = await lines.next();
      res.status(200);
      res.set({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="subscriptions.csv"',
      });
      if (!header.done) res.write(header.value);
      for await (const line of lines) {
        // A slow reader makes the export wait instead of buffering every row in memory.
        if (!res.write(line)) await once(res, 'drain');
      }
      res.end();
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/subscriptions/{id}',
      operationId: 'subscriptions:get',
      summary: 'Get a subscription',
      params: subscriptionIdParamsSchema,
      response: subscriptionSchema,
    },
    async ({ params, caller }) => getSubscription(ctx, caller, params.id),
  );
}
