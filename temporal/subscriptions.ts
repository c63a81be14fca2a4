// The `subscription:<id>` workflows as the subscription domain sees them (SubscriptionWorkflows).

import type { Client } from '@temporalio/client';
import {
  SUBSCRIPTION_SIGNALS,
  subscriptionWorkflowId,
  type SubscriptionWorkflowInput,
} from '../domain/subscriptions/rules.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { subscriptionWorkflow } from '../workflows/subscriptions.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startMissing, startOnce } from './workflow-control.js';

export function temporalSubscriptionWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): SubscriptionWorkflows {
  const options = async (subscriptionId: string) => ({
    workflowId: subscriptionWorkflowId(subscriptionId),
    taskQueue,
    args: [{ subscriptionId }] as [SubscriptionWorkflowInput],
    ...(await operators.entity('subscription', subscriptionId, 'active')),
  });
  const start = (subscriptionId: string) =>
    startOnce(async () =>
      temporal.workflow.start<typeof subscriptionWorkflow>(
        'subscriptionWorkflow',
        await options(subscriptionId),
      ),
    );
  return {
    async start(subscriptionId) {
      await start(subscriptionId);
    },
    async signalChanged(subscriptionId) {
      // With start: an ended workflow reads the row once and ends again; a lost one is started.
      await temporal.workflow.signalWithStart<typeof subscriptionWorkflow, []>('subscriptionWorkflow', {
        ...(await options(subscriptionId)),
        signal: SUBSCRIPTION_SIGNALS.changed,
        signalArgs: [],
      });
    },
    startMissing: (subscriptionIds) => startMissing(temporal, subscriptionIds, subscriptionWorkflowId, start),
  };
}
