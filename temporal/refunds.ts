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
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startMissing, startOnce } from './workflow-control.js';

export function temporalRefundWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): RefundWorkflows {
  const options = async (refundId: string) => ({
    workflowId: refundWorkflowId(refundId),
    taskQueue,
    args: [{ refundId }] as [RefundWorkflowInput],
    ...(await operators.entity('refund', refundId, 'pending')),
  });
  const start = (refundId: string) =>
    startOnce(async () =>
      temporal.workflow.start<typeof refundWorkflow>('refundWorkflow', await options(refundId)),
    );
  return {
    async start(refundId) {
      await start(refundId);
    },
    async signalOutcome(refundId, outcome) {
      await temporal.workflow.signalWithStart<typeof refundWorkflow, [RefundOutcomeSignal]>(
        'refundWorkflow',
        {
          ...(await options(refundId)),
          signal: REFUND_SIGNALS.outcome,
          signalArgs: [outcome],
        },
      );
    },
    startMissing: (refundIds) => startMissing(temporal, refundIds, refundWorkflowId, start),
  };
}
