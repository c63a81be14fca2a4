// Stuck work's side in Temporal: what a run says of itself (pending activities, search attributes,
// memo), and the signal that marks it `TollgateStuck` for the Temporal UI's filters.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  ENTITY_ID,
  ENTITY_KIND,
  ORGANIZATION_ID,
  STUCK_SIGNAL,
  type StuckSignal,
} from '../domain/operators/rules.js';
import type { OperatorWorkflows, StuckRunFacts } from '../domain/operators/stuck-work-service.js';
import { checkoutWorkflowId } from '../domain/checkouts/rules.js';
import { webhookDeliveryWorkflowId, webhookDispatcherWorkflowId } from '../domain/webhooks/rules.js';

/**
 * `searchAttributes`: whether the namespace has Tollgate's attributes (temporal/entity-directory.ts);
 * without them nothing is marked, since a run upserting an unknown attribute would fail its task.
 */
export function temporalOperatorWorkflows(
  temporal: Client,
  taskQueue: string,
  { searchAttributes }: { searchAttributes: boolean },
): OperatorWorkflows {
  return {
    workflowIds: {
      dispatcher: webhookDispatcherWorkflowId(taskQueue),
      checkout: checkoutWorkflowId,
      webhookDelivery: webhookDeliveryWorkflowId,
    },
    async describe(workflowId): Promise<StuckRunFacts | null> {
      try {
        const description = await temporal.workflow.getHandle(workflowId).describe();
        const memo = description.memo as { dashboard_url?: unknown } | undefined;
        return {
          running: description.status.name === 'RUNNING',
          pendingActivities: (description.raw.pendingActivities ?? []).map((activity) => ({
            activityId: activity.activityId ?? '',
            attempt: activity.attempt ?? 0,
            lastFailure: activity.lastFailure?.message ?? null,
          })),
          organizationId: description.typedSearchAttributes.get(ORGANIZATION_ID) ?? null,
          entityKind: description.typedSearchAttributes.get(ENTITY_KIND) ?? null,
          entityId: description.typedSearchAttributes.get(ENTITY_ID) ?? null,
          dashboardUrl: typeof memo?.dashboard_url === 'string' ? memo.dashboard_url : null,
        };
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return null;
        throw error;
      }
    },
    async flag(workflowId, kind) {
      if (!searchAttributes) return false;
      try {
        const signal: StuckSignal = { kind };
        await temporal.workflow.getHandle(workflowId).signal(STUCK_SIGNAL, signal);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
