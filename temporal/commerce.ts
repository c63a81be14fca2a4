// Typed starts and signals of the `checkout:<id>` and `refund:<id>` workflows, for the API, the
// processor-event path and the reconciler.

import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { findUnfinishedCheckouts } from '../domain/checkouts/repository.js';
import type { CheckoutWorkflows } from '../domain/checkouts/service.js';
import {
  CHECKOUT_SIGNALS,
  REFUND_SIGNALS,
  checkoutWorkflowId,
  refundWorkflowId,
  type CheckoutConfirmedSignal,
  type CheckoutPaymentSignal,
  type RefundOutcomeSignal,
} from '../domain/checkouts/rules.js';
import type { ProcessorEvent, ProcessorEventSink } from '../domain/payments/processor.js';
import { findPendingRefunds, type RefundWorkflows } from '../domain/refunds/service.js';
import type { Db } from '../infra/db.js';
import type { checkoutWorkflow, refundWorkflow } from '../workflows/checkouts.js';

async function startOnce(start: () => Promise<unknown>): Promise<boolean> {
  try {
    await start();
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

export function temporalCheckoutWorkflows(temporal: Client, taskQueue: string): CheckoutWorkflows {
  return {
    async started(checkoutId) {
      await startOnce(() =>
        temporal.workflow.start<typeof checkoutWorkflow>('checkoutWorkflow', {
          workflowId: checkoutWorkflowId(checkoutId),
          taskQueue,
          args: [{ checkoutId }],
        }),
      );
    },
    async confirmed(checkoutId, attempt) {
      // With start: the workflow may have ended (a failed payment past expiry) or never started.
      await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutConfirmedSignal]>(
        'checkoutWorkflow',
        {
          workflowId: checkoutWorkflowId(checkoutId),
          taskQueue,
          args: [{ checkoutId }],
          signal: CHECKOUT_SIGNALS.confirmed,
          signalArgs: [{ attempt }],
        },
      );
    },
  };
}

export function temporalRefundWorkflows(temporal: Client, taskQueue: string): RefundWorkflows {
  return {
    async started(refundId) {
      await startOnce(() =>
        temporal.workflow.start<typeof refundWorkflow>('refundWorkflow', {
          workflowId: refundWorkflowId(refundId),
          taskQueue,
          args: [{ refundId }],
        }),
      );
    },
  };
}

/**
 * Processor events (Stripe webhooks, the sandbox's own) become signals of the workflow they
 * concern, starting it if needed: a workflow that already ended re-reads its row and ends again,
 * so a late or repeated event has no effect.
 */
export function temporalProcessorEventSink(temporal: Client, taskQueue: string): ProcessorEventSink {
  return {
    async deliver(event: ProcessorEvent) {
      if (event.type === 'payment.succeeded' || event.type === 'payment.failed') {
        const signal: CheckoutPaymentSignal =
          event.type === 'payment.succeeded'
            ? { type: event.type, paymentId: event.paymentId }
            : { type: event.type, paymentId: event.paymentId, message: event.message };
        await temporal.workflow.signalWithStart<typeof checkoutWorkflow, [CheckoutPaymentSignal]>(
          'checkoutWorkflow',
          {
            workflowId: checkoutWorkflowId(event.checkoutId),
            taskQueue,
            args: [{ checkoutId: event.checkoutId }],
            signal: CHECKOUT_SIGNALS.payment,
            signalArgs: [signal],
          },
        );
        return;
      }
      const outcome: RefundOutcomeSignal =
        event.type === 'refund.succeeded'
          ? { type: event.type, processorRefundId: event.processorRefundId }
          : { type: event.type, processorRefundId: event.processorRefundId, reason: event.reason };
      await temporal.workflow.signalWithStart<typeof refundWorkflow, [RefundOutcomeSignal]>(
        'refundWorkflow',
        {
          workflowId: refundWorkflowId(event.refundId),
          taskQueue,
          args: [{ refundId: event.refundId }],
          signal: REFUND_SIGNALS.outcome,
          signalArgs: [outcome],
        },
      );
    },
  };
}

/** Grace for a just-created checkout or refund whose workflow start is still on its way. */
const RECONCILE_MIN_AGE_MS = 60_000;

/**
 * Starts the workflow of every unfinished checkout and pending refund that has none: the healing
 * path for a crash or a Temporal outage between the commit and the start.
 */
export async function startMissingCommerceWorkflows(
  db: Db,
  temporal: Client,
  taskQueue: string,
  now = new Date(),
): Promise<{ started: string[] }> {
  const before = new Date(now.getTime() - RECONCILE_MIN_AGE_MS);
  const started: string[] = [];
  const checkouts = temporalCheckoutWorkflows(temporal, taskQueue);
  for (const { id } of await findUnfinishedCheckouts(db, before, 500)) {
    if (await isRunning(temporal, checkoutWorkflowId(id))) continue;
    await checkouts.started(id);
    started.push(checkoutWorkflowId(id));
  }
  const refunds = temporalRefundWorkflows(temporal, taskQueue);
  for (const { id } of await findPendingRefunds(db, before, 500)) {
    if (await isRunning(temporal, refundWorkflowId(id))) continue;
    await refunds.started(id);
    started.push(refundWorkflowId(id));
  }
  return { started };
}

async function isRunning(temporal: Client, workflowId: string): Promise<boolean> {
  try {
    const description = await temporal.workflow.getHandle(workflowId).describe();
    return description.status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
