// The `subscription:<id>` workflows as the subscription domain sees them (SubscriptionWorkflows).

import type { Client } from '@temporalio/client';
import {
  SUBSCRIPTION_SIGNALS,
  subscriptionWorkflowId,
  type SubscriptionWorkflowInput,
} from '../domain/subscriptions/rules.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { subscriptionWorkflow } from '../workflows/subscriptions.js';
import { startMissing, startOnce } from './workflow-control.js';

export function temporalSubscriptionWorkflows(temporal: Client, taskQueue: string): SubscriptionWorkflows {
  const options = (subscriptionId: string) => ({
    workflowId: subscriptionWorkflowId(subscriptionId),
    taskQueue,
    args: [{ subscriptionId }] as [SubscriptionWorkflowInput],
  });
  const start = (subscriptionId: string) =>
    startOnce(() =>
      temporal.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', options(subscriptionId)),
    );
  return {
    async start(subscriptionId) {
      await start(subscriptionId);
    },
    async signalChanged(subscriptionId) {
      // With start: an ended workflow reads the row once and ends again; a lost one is started.
      await temporal.workflow.signalWithStart<typeof subscriptionWorkflow, []>('subscriptionWorkflow', {
        ...options(subscriptionId),
        signal: SUBSCRIPTION_SIGNALS.changed,
        signalArgs: [],
      });
    },
    startMissing: (subscriptionIds) => startMissing(temporal, subscriptionIds, subscriptionWorkflowId, start),
  };
}
