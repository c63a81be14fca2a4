// The `dispute:<processor dispute id>` workflows as the dispute domain sees them (DisputeWorkflows).

import type { Client } from '@temporalio/client';
import {
  DISPUTE_SIGNALS,
  disputeWorkflowId,
  type DisputeEvent,
  type DisputeWorkflowInput,
} from '../domain/disputes/rules.js';
import type { DisputeWorkflows } from '../domain/disputes/service.js';
import type { disputeWorkflow } from '../workflows/disputes.js';

export function temporalDisputeWorkflows(temporal: Client, taskQueue: string): DisputeWorkflows {
  const options = (processorDisputeId: string) => ({
    workflowId: disputeWorkflowId(processorDisputeId),
    taskQueue,
    args: [{ processorDisputeId }] as [DisputeWorkflowInput],
    staticSummary: `Dispute ${processorDisputeId} at the payment processor`,
  });
  return {
    async signalEvent(event) {
      await temporal.workflow.signalWithStart<typeof disputeWorkflow, [DisputeEvent]>('disputeWorkflow', {
        ...options(event.processorDisputeId),
        signal: DISPUTE_SIGNALS.event,
        signalArgs: [event],
      });
    },
    async requestClose(processorDisputeId) {
      await temporal.workflow.signalWithStart<typeof disputeWorkflow, []>('disputeWorkflow', {
        ...options(processorDisputeId),
        signal: DISPUTE_SIGNALS.close,
        signalArgs: [],
      });
    },
  };
}
