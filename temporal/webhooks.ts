// The webhook delivery workflows as the webhook domain sees them (WebhookWorkflows): one per
// endpoint for first attempts, one per (endpoint, resource) for retries in order, and the
// deployment's outbox dispatcher.

import type { Client } from '@temporalio/client';
import {
  WEBHOOK_SIGNALS,
  webhookDeliveryWorkflowId,
  webhookDispatcherWorkflowId,
  webhookEndpointDeliveryWorkflowId,
  type WebhookDeliveryRequest,
  type WebhookDeliveryTarget,
} from '../domain/webhooks/rules.js';
import type { WebhookWorkflows } from '../domain/webhooks/service.js';
import type {
  webhookDeliveryWorkflow,
  webhookDispatcherWorkflow,
  webhookEndpointDeliveryWorkflow,
} from '../workflows/webhooks.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startOnce } from './workflow-control.js';

export function temporalWebhookWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): WebhookWorkflows {
  return {
    async enqueueDelivery({ endpointId, resourceId }, request) {
      await temporal.workflow.signalWithStart<typeof webhookDeliveryWorkflow, [WebhookDeliveryRequest]>(
        'webhookDeliveryWorkflow',
        {
          workflowId: webhookDeliveryWorkflowId(endpointId, resourceId),
          taskQueue,
          args: [{ endpointId, resourceId, queue: [] }],
          signal: WEBHOOK_SIGNALS.enqueue,
          signalArgs: [request],
          ...(await operators.entity('webhook_delivery', endpointId, 'delivering', { resourceId })),
        },
      );
    },
    async enqueueEndpointBatch(endpointId, batch) {
      await temporal.workflow.signalWithStart<
        typeof webhookEndpointDeliveryWorkflow,
        [WebhookDeliveryTarget[]]
      >('webhookEndpointDeliveryWorkflow', {
        workflowId: webhookEndpointDeliveryWorkflowId(endpointId),
        taskQueue,
        args: [{ endpointId, batches: [] }],
        signal: WEBHOOK_SIGNALS.enqueueBatch,
        signalArgs: [batch],
        ...(await operators.entity('webhook_delivery', endpointId, 'delivering')),
      });
    },
    ensureDispatcher: () =>
      startOnce(() =>
        temporal.workflow.start<typeof webhookDispatcherWorkflow>('webhookDispatcherWorkflow', {
          workflowId: webhookDispatcherWorkflowId(taskQueue),
          taskQueue,
          args: [],
          ...operators.system('webhook_dispatcher'),
        }),
      ),
  };
}
