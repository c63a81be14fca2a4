// The payment-method workflows as the portal sees them (PaymentMethodWorkflows).

import { WorkflowFailedError, type Client } from '@temporalio/client';
import { AppError } from '../domain/platform/errors.js';
import {
  paymentMethodDetachWorkflowId,
  paymentMethodSetupWorkflowId,
} from '../domain/payment-methods/rules.js';
import type { PaymentMethodWorkflows } from '../domain/payment-methods/service.js';
import type {
  paymentMethodDetachWorkflow,
  paymentMethodSetupWorkflow,
} from '../workflows/payment-methods.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startOnce } from './workflow-control.js';

export function temporalPaymentMethodWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): PaymentMethodWorkflows {
  return {
    async setUp(input) {
      try {
        return await temporal.workflow.execute<typeof paymentMethodSetupWorkflow>(
          'paymentMethodSetupWorkflow',
          {
            workflowId: paymentMethodSetupWorkflowId(input.customerId, input.requestId),
            taskQueue,
            args: [input],
            // The buyer is waiting: no worker in time, or a processor that kept failing, is an
            // outage they can retry, not a fault of their card.
            workflowExecutionTimeout: '1 minute',
            ...(await operators.entity('payment_method_setup', input.customerId, 'saving')),
          },
        );
      } catch (error) {
        if (error instanceof WorkflowFailedError) {
          throw new AppError(
            'ServiceUnavailable',
            'Saving cards is not available right now. Try again in a minute.',
          );
        }
        throw error;
      }
    },
    async detach(paymentMethodId) {
      await startOnce(async () =>
        temporal.workflow.start<typeof paymentMethodDetachWorkflow>('paymentMethodDetachWorkflow', {
          workflowId: paymentMethodDetachWorkflowId(paymentMethodId),
          taskQueue,
          args: [paymentMethodId],
          ...(await operators.entity('payment_method_detach', paymentMethodId, 'detaching')),
        }),
      );
    },
  };
}
