import { condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { RefundActivities } from '../activities/refunds.js';
import {
  REFUND_SIGNALS,
  type RefundOutcomeSignal,
  type RefundSettlement,
  type RefundWorkflowInput,
} from '../domain/refunds/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView } from './operators.js';
import { CAPPED_RETRY, PROCESSOR_STEP_RETRY, untilProcessorAccepts } from './retry.js';

const { executeRefund, settleRefund } = proxyActivities<RefundActivities>({
  startToCloseTimeout: '1 minute',
  // The processor call's idempotency key is the refund: a retry never refunds twice.
  retry: PROCESSOR_STEP_RETRY,
});

export const refundOutcomeSignal = defineSignal<[RefundOutcomeSignal]>(REFUND_SIGNALS.outcome);
/** Who the refund waits for and until when, in words (docs/architecture.md, "Operators"). */
export const refundWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/**
 * `refund:<id>`: lives while the refund is pending. Asks the processor once (idempotency key = the
 * refund), then settles the refund and the order's totals with the answer, or with the processor's
 * later event when the refund is still pending there.
 */
export async function refundWorkflow(input: RefundWorkflowInput): Promise<string> {
  const { refundId } = input;
  const outcomes: RefundOutcomeSignal[] = [];
  setHandler(refundOutcomeSignal, (outcome) => {
    outcomes.push(outcome);
  });
  const view = operatorView(refundWaitingForQuery);
  view.working('asking the payment processor for the refund');
  const result = await untilProcessorAccepts(view, { kind: 'refund', id: refundId }, () =>
    executeRefund(refundId),
  );
  if (result.outcome === 'settled') {
    view.status(result.status);
    view.finished(`the refund ${result.status}`);
    return result.status;
  }
  if (result.outcome !== 'pending') {
    const settlement: RefundSettlement =
      result.outcome === 'succeeded'
        ? { status: 'succeeded', processorRefundId: result.processorRefundId }
        : { status: 'failed', processorRefundId: result.processorRefundId, reason: result.reason };
    view.working(`recording the processor's answer (${settlement.status})`);
    await settleRefund(refundId, settlement);
    view.status(settlement.status);
    view.finished(`the refund ${settlement.status}`);
    return settlement.status;
  }
  view.waiting(
    'the payment processor to settle the refund',
    null,
    'The refund is pending there; its event settles the refund and the order.',
  );
  await condition(() => outcomes.length > 0);
  const outcome = outcomes.shift()!;
  const settlement: RefundSettlement =
    outcome.type === 'refund.succeeded'
      ? { status: 'succeeded', processorRefundId: outcome.processorRefundId }
      : { status: 'failed', processorRefundId: outcome.processorRefundId, reason: outcome.reason };
  view.working(`recording the processor's answer (${settlement.status})`);
  await settleRefund(refundId, settlement);
  view.status(settlement.status);
  view.finished(`the refund ${settlement.status}`);
  return settlement.status;
}

const { reconcileRefunds } = proxyActivities<RefundActivities>({
  startToCloseTimeout: '5 minutes',
  retry: CAPPED_RETRY,
});

/** Run by the `reconcile-refunds` schedule: starts the workflows that pending refunds are missing. */
export async function reconcileRefundsWorkflow(): Promise<{ started: string[] }> {
  return reconcileRefunds();
}
