import {
  defineSignal,
  patched,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
  type QueryDefinition,
} from '@temporalio/workflow';
import {
  currentDetails,
  ENTITY_KIND,
  PROCESSOR_PROBLEM,
  STATUS,
  STATUS_PATCH,
  STUCK,
  STUCK_SIGNAL,
  waitingForSentence,
  type StuckSignal,
  type Deadline,
  type OperatorWait,
} from '../domain/operators/rules.js';

/** The stuck-work review's mark: the kind while the run is on the operators' page, null after. */
export const operatorStuckSignal = defineSignal<[StuckSignal]>(STUCK_SIGNAL);

export type OperatorView = ReturnType<typeof operatorView>;

/**
 * Keeps what operators see of the workflow current: `TollgateStatus`, and where it stands, which
 * its `waitingFor` query answers and its current details (the Temporal UI's "Current Details")
 * show in the same words. Status changes are upserted only when the status differs, only in
 * histories that have the patch, and only when the run was started with Tollgate's search
 * attributes: a namespace without them registered would fail the workflow task instead. Neither a
 * query handler nor current details is a command, so histories recorded before them replay.
 */
export function operatorView(waitingForQuery: QueryDefinition<string, []>) {
  let status = workflowInfo().typedSearchAttributes.get(STATUS);
  let shown: OperatorWait;
  const show = (wait: OperatorWait) => {
    shown = wait;
    setCurrentDetails(currentDetails(wait));
  };
  show({ kind: 'working', working: 'starting', sinceMs: Date.now(), until: null, reason: null });
  setHandler(waitingForQuery, () => waitingForSentence(shown));
  // Only a review that found the run stuck sends this signal, and histories recorded before it
  // hold none, so the upsert needs no patch; a namespace without the attribute gets none.
  setHandler(operatorStuckSignal, ({ kind }) => {
    if (workflowInfo().typedSearchAttributes.get(ENTITY_KIND) === undefined) return;
    if ((workflowInfo().typedSearchAttributes.get(STUCK) ?? null) === kind) return;
    upsertSearchAttributes([{ key: STUCK, value: kind }]);
  });
  return {
    status(next: string): void {
      if (next === status) return;
      if (workflowInfo().typedSearchAttributes.get(ENTITY_KIND) === undefined) return;
      if (!patched(STATUS_PATCH)) return;
      status = next;
      upsertSearchAttributes([{ key: STATUS, value: next }]);
    },
    /**
     * Marks (or unmarks, with null) the run as held back by the processor's configuration. Only
     * reached after a configuration failure, which no history recorded before it holds.
     */
    processorProblem(problem: 'configuration' | null): void {
      if (workflowInfo().typedSearchAttributes.get(ENTITY_KIND) === undefined) return;
      if (workflowInfo().typedSearchAttributes.get(PROCESSOR_PROBLEM) === (problem ?? undefined)) return;
      upsertSearchAttributes([{ key: PROCESSOR_PROBLEM, value: problem }]);
    },
    /** Someone or something else must act; `until` is when the wait ends by itself, if ever. */
    waiting(waitingFor: string, until: Deadline | null, reason: string): void {
      show({ kind: 'waiting', waitingFor, until, sinceMs: Date.now(), reason });
    },
    /** The workflow's own step (an activity, retried until it succeeds unless `until` says otherwise). */
    working(working: string, options: { until?: Deadline; reason?: string } = {}): void {
      show({
        kind: 'working',
        working,
        sinceMs: Date.now(),
        until: options.until ?? null,
        reason: options.reason ?? null,
      });
    },
    /** A wait or step described elsewhere (workflows/subscription-waits.ts). */
    show,
    /**
     * The run ends with this outcome ("the checkout succeeded"). A stuck mark goes with it: a
     * closed run takes no signal, so the review could not clear it later.
     */
    finished(outcome: string): void {
      show({ kind: 'finished', outcome, atMs: Date.now() });
      if (workflowInfo().typedSearchAttributes.get(STUCK) !== undefined) {
        upsertSearchAttributes([{ key: STUCK, value: null }]);
      }
    },
  };
}

/**
 * A deployment-wide loop (the outbox dispatcher, the grant dispatcher, the meter refresher) waits
 * for work that an activity watches for in rounds; each round is shown as it starts.
 */
export function watchRound(
  view: OperatorView,
  waitingFor: string,
  round: number,
  loop: { roundMs: number; rounds: number; work: string },
): void {
  view.waiting(
    waitingFor,
    { atMs: Date.now() + loop.roundMs, then: `watch round ${round + 1} of ${loop.rounds} ends` },
    `An activity watches for them and ${loop.work}; after ${loop.rounds} rounds the run continues as new.`,
  );
}
