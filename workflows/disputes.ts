import { defineQuery, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { DisputeActivities } from '../activities/disputes.js';
import { DISPUTE_SIGNALS, type DisputeEvent, type DisputeWorkflowInput } from '../domain/disputes/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView } from './operators.js';
import { CAPPED_RETRY } from './retry.js';

const { recordDisputeEvent, closeAcceptedDispute } = proxyActivities<DisputeActivities>({
  startToCloseTimeout: '1 minute',
  // Recording is idempotent by the processor's dispute id; closing a closed dispute answers how it ended.
  retry: CAPPED_RETRY,
});

export const disputeEventSignal = defineSignal<[DisputeEvent]>(DISPUTE_SIGNALS.event);
export const disputeCloseSignal = defineSignal<[]>(DISPUTE_SIGNALS.close);
/** What the dispute's workflow is doing, in words (docs/architecture.md, "Operators"). */
export const disputeWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/**
 * `dispute:<processor dispute id>`: records the processor's events of one dispute in the order they
 * arrive, each at the time it states (the sandbox's disputed card opens its dispute a few seconds
 * after the payment: a timer here), and closes the dispute with the processor once the seller or
 * the auto-accept setting conceded it. Ends when nothing is left to do; the next event or
 * acceptance starts it again.
 */
export async function disputeWorkflow(input: DisputeWorkflowInput): Promise<string> {
  const events: DisputeEvent[] = [];
  let closeRequested = false;
  setHandler(disputeEventSignal, (event) => {
    events.push(event);
  });
  setHandler(disputeCloseSignal, () => {
    closeRequested = true;
  });
  const view = operatorView(disputeWaitingForQuery);
  let outcome = 'recorded';
  // Signals that arrive while a step runs are seen here; one that arrives as the run completes fails
  // the completion, and the run replays with it.
  while (events.length > 0 || closeRequested) {
    const event = events.shift();
    if (event) {
      const opensAt = Date.parse(event.occurredAt);
      if (opensAt > Date.now()) {
        view.waiting(
          'the dispute to open at the payment processor',
          { atMs: opensAt, then: 'it is recorded' },
          'The sandbox opens the dispute of its disputed test card a few seconds after the payment.',
        );
        await sleep(opensAt - Date.now());
      }
      view.working(`recording the processor's dispute event (${event.status})`);
      const recorded = await recordDisputeEvent(event);
      if (recorded.close) closeRequested = true;
      outcome = event.status;
      continue;
    }
    closeRequested = false;
    view.working('closing the accepted dispute with the payment processor');
    outcome = (await closeAcceptedDispute(input.processorDisputeId)) ?? outcome;
  }
  view.status(outcome);
  view.finished(`the dispute is ${outcome}`);
  return outcome;
}
