import { continueAsNew, defineQuery, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { CustomerMeterActivities } from '../activities/customer-meters.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView, watchRound } from './operators.js';

/** What the refresher waits for, in words (docs/architecture.md, "Operators"). */
export const customerMeterRefresherWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/** The activity watches for stale customers this long before handing back to the workflow. */
const REFRESH_WATCH_MS = 30_000;
const REFRESH_ROUNDS_PER_RUN = 200;

const { refreshCustomerMeters } = proxyActivities<CustomerMeterActivities>({
  startToCloseTimeout: '2 minutes',
  // A worker that dies mid-watch is noticed this fast, and the watch resumes on another worker.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const { ensureCustomerMeterRefresher } = proxyActivities<CustomerMeterActivities>({
  startToCloseTimeout: '1 minute',
});

/**
 * `customer-meter-refresher:<task queue>`: keeps every customer meter of the deployment current.
 * Whatever may move a customer's meters marks them stale in its own transaction; this workflow,
 * which Temporal keeps alive across worker restarts, keeps an activity recomputing the marked
 * customers. A worker dying mid-round leaves the marks, so a balance is late, never wrong.
 */
export async function customerMeterRefresherWorkflow(): Promise<void> {
  const view = operatorView(customerMeterRefresherWaitingForQuery);
  for (let round = 0; round < REFRESH_ROUNDS_PER_RUN; round += 1) {
    watchRound(view, 'customers whose meters changed', round, {
      roundMs: REFRESH_WATCH_MS,
      rounds: REFRESH_ROUNDS_PER_RUN,
      work: 'recomputes their meters',
    });
    await refreshCustomerMeters({ watchMs: REFRESH_WATCH_MS });
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof customerMeterRefresherWorkflow>();
}

/** Run by the `customer-meter-refresher-watchdog` schedule: restarts the refresher if it ever stopped. */
export async function ensureCustomerMeterRefresherWorkflow(): Promise<{ started: boolean }> {
  return { started: await ensureCustomerMeterRefresher() };
}
