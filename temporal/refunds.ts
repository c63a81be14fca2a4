// The `refund:<id>` workflows as the refund domain sees them (RefundWorkflows).

import type { Client } from '@temporalio/client';
import {
  REFUND_SIGNALS,
  refundWorkflowId,
  type RefundOutcomeSignal,
  type RefundWorkflowInput,
} from '../domain/refunds/rules.js';
import type { RefundWorkflows } from '../domain/refunds/service.js';
import type { refundWorkflow } from '../workflows/refunds.js';
import { startMissing, startOnce } from './workflow-control.js';

export function temporalRefundWorkflows(temporal: Client, taskQueue: string): RefundWorkflows {
  const options = (refundId: string) => ({
    workflowId: refundWorkflowId(refundId),
    taskQueue,
    args: [{ refundId }] as [RefundWorkflowInput],
  });
  const start = (refundId: string) =>
    startOnce(() => temporal.workflow.start<typeof refundWorkflow>('refundWorkflow', options(refundId)));
  return {
    async start(refundId) {
      await start(refundId);
    },
    async signalOutcome(refundId, outcome) {
      await temporal.workflow.signalWithStart<typeof refundWorkflow, [RefundOutcomeSignal]>(
        'refundWorkflow',
        {
          ...options(refundId),
          signal: REFUND_SIGNALS.outcome,
          signalArgs: [outcome],
        },
      );
    },
    startMissing: (refundIds) => startMissing(temporal, refundIds, refundWorkflowId, start),
  };
}
