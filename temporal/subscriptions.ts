// The `subscription:<id>` workflows as the subscription domain sees them (SubscriptionWorkflows).

import { WorkflowFailedError, type Client } from '@temporalio/client';
import { AppError } from '../domain/platform/errors.js';
import {
  customerPaymentWorkflowId,
  SUBSCRIPTION_SIGNALS,
  subscriptionWorkflowId,
  type CustomerPaymentOutcome,
  type SubscriptionWorkflowInput,
} from '../domain/subscriptions/rules.js';
import type { SubscriptionWorkflows } from '../domain/subscriptions/service.js';
import type { customerPaymentWorkflow, subscriptionWorkflow } from '../workflows/subscriptions.js';
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
    async signalCustomerPayment(subscriptionId, outcome) {
      // With start, as `changed`: an ended plan's workflow still records the money it was paid.
      await temporal.workflow.signalWithStart<typeof subscriptionWorkflow, [CustomerPaymentOutcome]>(
        'subscriptionWorkflow',
        {
          ...(await options(subscriptionId)),
          signal: SUBSCRIPTION_SIGNALS.customerPayment,
          signalArgs: [outcome],
        },
      );
    },
    async payAsCustomer(input) {
      try {
        return await temporal.workflow.execute<typeof customerPaymentWorkflow>('customerPaymentWorkflow', {
          workflowId: customerPaymentWorkflowId(input.customerPaymentId),
          taskQueue,
          args: [input],
          // The customer is waiting: no worker in time, or a processor that kept failing, is an
          // outage they can retry, not a fault of their card.
          workflowExecutionTimeout: '1 minute',
          ...(await operators.entity('subscription', input.subscriptionId, 'customer_paying')),
        });
      } catch (error) {
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
