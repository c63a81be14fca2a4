// The payment-method workflows as the portal sees them (PaymentMethodWorkflows).

import type { Client } from '@temporalio/client';
import {
  paymentMethodDetachWorkflowId,
  paymentMethodSetupWorkflowId,
} from '../domain/payment-methods/rules.js';
import type { PaymentMethodWorkflows } from '../domain/payment-methods/service.js';
import type {
  paymentMethodDetachWorkflow,
  paymentMethodSetupWorkflow,
} from '../workflows/payment-methods.js';
import { startOnce } from './workflow-control.js';

export function temporalPaymentMethodWorkflows(temporal: Client, taskQueue: string): PaymentMethodWorkflows {
  return {
    setUp: (input) =>
      temporal.workflow.execute<typeof paymentMethodSetupWorkflow>('paymentMethodSetupWorkflow', {
        workflowId: paymentMethodSetupWorkflowId(input.customerId, input.requestId),
        taskQueue,
        args: [input],
        // The buyer is waiting: a worker that cannot take it in time is an error they can retry.
        workflowExecutionTimeout: '1 minute',
      }),
    async detach(paymentMethodId) {
      await startOnce(() =>
        temporal.workflow.start<typeof paymentMethodDetachWorkflow>('paymentMethodDetachWorkflow', {
          workflowId: paymentMethodDetachWorkflowId(paymentMethodId),
          taskQueue,
          args: [paymentMethodId],
        }),
      );
    },
  };
}
