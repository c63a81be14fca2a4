// The `checkout:<id>` workflows as the checkout domain sees them (CheckoutWorkflows).

import type { Client } from '@temporalio/client';
import {
  CHECKOUT_SIGNALS,
  checkoutWorkflowId,
  type CheckoutConfirmedSignal,
  type CheckoutPaymentSignal,
  type CheckoutWorkflowInput,
} from '../domain/checkouts/rules.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import type { checkoutWorkflow } from '../workflows/checkouts.js';
import { NO_OPERATOR_CONTEXT, type OperatorContext } from './entity-directory.js';
import { startMissing, startOnce } from './workflow-control.js';

export function temporalCheckoutWorkflows(
  temporal: Client,
  taskQueue: string,
  operators: OperatorContext = NO_OPERATOR_CONTEXT,
): CheckoutWorkflows {
  const options = async (checkoutId: string, created?: { expiresAt: Date }) => ({
    workflowId: checkoutWorkflowId(checkoutId),
    taskQueue,
    args: [created ? { checkoutId, expiresAtMs: created.expiresAt.getTime() } : { checkoutId }] as [
      CheckoutWorkflowInput,
    ],
    ...(await operators.entity('checkout', checkoutId, 'open')),
  });
  const start = (checkoutId: string, created?: { expiresAt: Date }) =>
    startOnce(async () =>
      temporal.workflow.start<typeof checkoutWorkflow>(
        'checkoutWorkflow',
        await options(checkoutId, created),
      ),
    );
  return {
    async start(checkoutId, created) {
      await start(checkoutId, created);
    },
    async signalConfirmed(checkoutId, attempt) {
      // With start: the workflow may have ended (a failed payment past expiry) or never started.
      await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutConfirmedSignal]>(
        'checkoutWorkflow',
        { ...(await options(checkoutId)), signal: CHECKOUT_SIGNALS.confirmed, signalArgs: [{ attempt }] },
      );
    },
    async signalPayment(checkoutId, payment) {
      await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutPaymentSignal]>(
        'checkoutWorkflow',
        { ...(await options(checkoutId)), signal: CHECKOUT_SIGNALS.payment, signalArgs: [payment] },
      );
    },
    startMissing: (checkoutIds) =>
      startMissing(temporal, checkoutIds, checkoutWorkflowId, (checkoutId) => start(checkoutId)),
  };
}
