// The draft orders' charge workflow as the orders domain sees it (DraftOrderWorkflows).

import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, type Client } from '@temporalio/client';
import type { DraftOrderWorkflows } from '../domain/orders/drafts.js';
import { draftOrderChargeWorkflowId } from '../domain/orders/rules.js';
import { AppError } from '../domain/platform/errors.js';
import type { draftOrderChargeWorkflow } from '../workflows/orders.js';

export function temporalDraftOrderWorkflows(temporal: Client, taskQueue: string): DraftOrderWorkflows {
  return {
    async charge(input) {
      try {
        return await temporal.workflow.execute<typeof draftOrderChargeWorkflow>('draftOrderChargeWorkflow', {
          workflowId: draftOrderChargeWorkflowId(input.orderId, input.attempt),
          taskQueue,
          args: [input],
          // The seller is waiting: no worker in time, or a processor that kept failing, is an
          // outage to retry; the order is resumed by the same try (docs/orders.md).
          workflowExecutionTimeout: '1 minute',
        });
      } catch (error) {
        // Another finalize call runs this very try: it charges the order, this one does not.
        if (error instanceof WorkflowExecutionAlreadyStartedError)
          return { outcome: 'not_draft', status: 'pending' };
        if (error instanceof WorkflowFailedError) {
          throw new AppError(
            'ServiceUnavailable',
            'Payments are not available right now. Try again in a minute.',
          );
        }
        throw error;
      }
    },
  };
}
