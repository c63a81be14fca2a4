import { apiVersionOf } from '../http/api-version.js';
import { z } from 'zod';
import { listResourceSchema } from '../../domain/platform/schemas.js';
import {
  webhookDeliveryListQuerySchema,
  webhookDeliverySchema,
  webhookEndpointCreateSchema,
  webhookEndpointListQuerySchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookIdParamsSchema,
  webhookEndpointEventListQuerySchema,
  webhookEndpointEventSchema,
  webhookEndpointHealthSchema,
  webhookHealthListQuerySchema,
} from '../../domain/webhooks/schemas.js';
import { listWebhookDeliveries, redeliverWebhookEvent } from '../../domain/webhooks/deliveries.js';
import {
  getWebhookEndpointHealth,
  listWebhookEndpointEvents,
  listWebhookEndpointHealth,
  sendTestWebhookEvent,
} from '../../domain/webhooks/endpoint-activity.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  resetWebhookEndpointSecret,
  updateWebhookEndpoint,
  type WebhookSender,
  type WebhookWorkflows,
} from '../../domain/webhooks/service.js';
import type { Db } from '../../infra/db.js';
import type { OperationRegistry } from '../http/operations.js';

const common = { tag: 'webhooks', errors: ['NotPermitted', 'ResourceNotFound'] } as const;

const extension = (what: string) => `Tollgate extension, not in @polar-sh/sdk 0.33.2: ${what}.`;

export function registerWebhookOperations(
  api: OperationRegistry,
  {
    db,
    webhooks,
    targets,
  }: { db: Db; webhooks: WebhookWorkflows; targets: Pick<WebhookSender, 'checkTarget'> },
) {
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/endpoints',
      operationId: 'webhooks:list_webhook_endpoints',
      summary: 'List webhook endpoints',
      query: webhookEndpointListQuerySchema,
      response: listResourceSchema(webhookEndpointSchema),
    },
    async ({ query, caller }) => listWebhookEndpoints(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/webhooks/endpoints',
      operationId: 'webhooks:create_webhook_endpoint',
      summary: 'Create a webhook endpoint',
      body: webhookEndpointCreateSchema,
      response: webhookEndpointSchema,
    },
    async ({ body, caller, res }) => createWebhookEndpoint(db, targets, caller, body, apiVersionOf(res)),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/endpoints/{id}',
      operationId: 'webhooks:get_webhook_endpoint',
      summary: 'Get a webhook endpoint',
      params: webhookIdParamsSchema,
      response: webhookEndpointSchema,
    },
    async ({ params, caller }) => getWebhookEndpoint(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/webhooks/endpoints/{id}',
      operationId: 'webhooks:update_webhook_endpoint',
      summary: 'Update a webhook endpoint',
      params: webhookIdParamsSchema,
      body: webhookEndpointUpdateSchema,
      response: webhookEndpointSchema,
    },
    async ({ params, body, caller }) => updateWebhookEndpoint(db, targets, caller, params.id, body),
  );
  api.add(
    {
      ...common,
      method: 'patch',
      path: '/webhooks/endpoints/{id}/secret',
      operationId: 'webhooks:reset_webhook_endpoint_secret',
      summary: "Replace a webhook endpoint's signing secret with a new generated one",
      params: webhookIdParamsSchema,
      response: webhookEndpointSchema,
      status: 200,
    },
    async ({ params, caller }) => resetWebhookEndpointSecret(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'delete',
      path: '/webhooks/endpoints/{id}',
      operationId: 'webhooks:delete_webhook_endpoint',
      summary: 'Delete a webhook endpoint',
      params: webhookIdParamsSchema,
      status: 204,
    },
    async ({ params, caller }) => {
      await deleteWebhookEndpoint(db, caller, params.id);
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/deliveries',
      operationId: 'webhooks:list_webhook_deliveries',
      summary: 'List webhook deliveries (one per HTTP attempt), newest first',
      query: webhookDeliveryListQuerySchema,
      response: listResourceSchema(webhookDeliverySchema),
    },
    async ({ query, caller }) => listWebhookDeliveries(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'post',
      path: '/webhooks/events/{id}/redeliver',
      operationId: 'webhooks:redeliver_webhook_event',
      summary: 'Send a webhook event to its endpoint again',
      params: webhookIdParamsSchema,
      response: z.null(),
      status: 202,
    },
    async ({ params, caller }) => {
      await redeliverWebhookEvent(db, webhooks, caller, params.id);
      // Polar answers 202 with a JSON `null`, which the SDK parses.
      return null;
    },
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/health',
      operationId: 'webhooks:list_webhook_endpoint_health',
      summary: 'List the health of webhook endpoints, in the order of the endpoint list',
      extension: extension('success rate of the last 7 days of attempts, last failure, why disabled'),
      query: webhookHealthListQuerySchema,
      response: listResourceSchema(webhookEndpointHealthSchema),
    },
    async ({ query, caller }) => listWebhookEndpointHealth(db, caller, query),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/endpoints/{id}/health',
      operationId: 'webhooks:get_webhook_endpoint_health',
      summary: 'Get the health of a webhook endpoint',
      extension: extension('success rate of the last 7 days of attempts, last failure, why disabled'),
      params: webhookIdParamsSchema,
      response: webhookEndpointHealthSchema,
    },
    async ({ params, caller }) => getWebhookEndpointHealth(db, caller, params.id),
  );
  api.add(
    {
      ...common,
      method: 'get',
      path: '/webhooks/endpoints/{id}/events',
      operationId: 'webhooks:list_webhook_endpoint_events',
      summary: 'List the events sent to a webhook endpoint, newest first, each with its attempts',
      extension: extension('one item per event, with its attempts and the next retry time'),
      params: webhookIdParamsSchema,
      query: webhookEndpointEventListQuerySchema,
      response: listResourceSchema(webhookEndpointEventSchema),
    },
    async ({ params, query, caller }) => listWebhookEndpointEvents(db, caller, params.id, query),
  );
  api.add(
    {
      ...common,
      errors: [...common.errors, 'Conflict'],
      method: 'post',
      path: '/webhooks/endpoints/{id}/test',
      operationId: 'webhooks:send_test_webhook_event',
      summary: 'Send a signed test event (organization.updated) to this endpoint only',
      extension: extension('queues an organization.updated event for this endpoint through the outbox'),
      params: webhookIdParamsSchema,
      response: z.null(),
      status: 202,
    },
    async ({ params, caller }) => {
      await sendTestWebhookEvent(db, caller, params.id);
      return null;
    },
  );
}
