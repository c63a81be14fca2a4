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
import { startMissing, startOnce } from './workflow-control.js';

export function temporalCheckoutWorkflows(temporal: Client, taskQueue: string): CheckoutWorkflows {
  const options = (checkoutId: string) => ({
    workflowId: checkoutWorkflowId(checkoutId),
    taskQueue,
    args: [{ checkoutId }] as [CheckoutWorkflowInput],
  });
  const start = (checkoutId: string) =>
    startOnce(() =>
      temporal.workflow.start<typeof checkoutWorkflow>('checkoutWorkflow', options(checkoutId)),
    );
  return {
    async start(checkoutId) {
      await start(checkoutId);
    },
    async signalConfirmed(checkoutId, attempt) {
      // With start: the workflow may have ended (a failed payment past expiry) or never started.
      await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutConfirmedSignal]>(
        'checkoutWorkflow',
        { ...options(checkoutId), signal: CHECKOUT_SIGNALS.confirmed, signalArgs: [{ attempt }] },
      );
    },
    async signalPayment(checkoutId, payment) {
      await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutPaymentSignal]>(
        'checkoutWorkflow',
        { ...options(checkoutId), signal: CHECKOUT_SIGNALS.payment, signalArgs: [payment] },
      );
    },
    startMissing: (checkoutIds) => startMissing(temporal, checkoutIds, checkoutWorkflowId, start),
  };
}
