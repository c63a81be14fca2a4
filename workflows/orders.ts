import { defineQuery, proxyActivities } from '@temporalio/workflow';
import type { OrderActivities } from '../activities/orders.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import type { DraftChargeInput, DraftChargeResult } from '../domain/orders/rules.js';
import { operatorView } from './operators.js';
import { WHILE_SOMEONE_WAITS } from './retry.js';

/** What the draft order's charge waits for, in words (docs/architecture.md, "Operators"). */
export const draftOrderChargeWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

const OUTCOMES: Record<DraftChargeResult['outcome'], string> = {
  paid: 'the order was paid',
  declined: 'the card was not charged; the order is a draft again',
  processing: 'the payment processor is still working on the payment',
  not_draft: 'the order was no longer a draft',
};

// The seller waits for the answer of their finalize call.
const { chargeDraftOrder } = proxyActivities<OrderActivities>(WHILE_SOMEONE_WAITS);

/**
 * `draft-order-charge:<order>:<try>`: finalize try `n` of a seller's draft order, charged
 * off-session on the customer's saved card under the try's key (docs/orders.md).
 */
export async function draftOrderChargeWorkflow(input: DraftChargeInput): Promise<DraftChargeResult> {
  const view = operatorView(draftOrderChargeWaitingForQuery);
  view.working(`charging finalize try ${input.attempt} of the draft order with the payment processor`, {
    reason: 'The seller waits for the answer of their finalize call.',
  });
  const result = await chargeDraftOrder(input);
  view.finished(OUTCOMES[result.outcome]);
  return result;
}
