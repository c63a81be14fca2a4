import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { BenefitGrantActivities } from '../activities/benefit-grants.js';
import { BENEFIT_GRANT_SIGNALS } from '../domain/benefit-grants/rules.js';
import { WAITING_FOR_QUERY } from '../domain/operators/rules.js';
import { operatorView, watchRound } from './operators.js';

export const benefitGrantsChangedSignal = defineSignal(BENEFIT_GRANT_SIGNALS.changed);
/** Who the grants wait for and until when, in words (docs/architecture.md, "Operators"). */
export const benefitGrantWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);
/** What the dispatcher waits for, in words. */
export const benefitGrantDispatcherWaitingForQuery = defineQuery<string>(WAITING_FOR_QUERY);

/** A grant workflow lingers this long after its work, so a burst of changes wakes one run. */
const LINGER_MS = 30_000;

const { applyBenefitGrants } = proxyActivities<BenefitGrantActivities>({
  startToCloseTimeout: '2 minutes',
  // An outside service that is down (GitHub, Discord) is retried for as long as it takes; the
  // grant shows the last error meanwhile.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

export type BenefitGrantWorkflowInput = { customerId: string; benefitId: string };

/**
 * `benefit-grant:<customer>:<benefit>`: grants, cycles, updates and revokes one benefit for one
 * customer, in order. What to do is on the grant rows (desired vs done); a signal says they
 * changed. A grant waiting for the customer (a linked account) ends the run; linking wakes it.
 */
export async function benefitGrantWorkflow(
  input: BenefitGrantWorkflowInput,
): Promise<{ waiting: string | null }> {
  let changed = true;
  setHandler(benefitGrantsChangedSignal, () => {
    changed = true;
  });
  let waiting: string | null = null;
  const view = operatorView(benefitGrantWaitingForQuery);
  while (changed) {
    changed = false;
    view.status('applying');
    view.working('applying the grants', {
      reason:
        'An outside service that fails (GitHub, Discord) is retried until it answers; the grant shows its last error.',
    });
    ({ waiting } = await applyBenefitGrants(input));
    if (waiting) {
      view.status('waiting');
      // The run ends here: the customer's linking (or a change to the grants) starts the next one.
      view.waiting('the customer to connect their account in the customer portal', null, waiting);
      break;
    }
    view.status('applied');
    view.waiting(
      'changes to these grants',
      { atMs: Date.now() + LINGER_MS, then: 'this run ends (the next change starts another)' },
      'The grants are as they should be.',
    );
    if (!changed) await condition(() => changed, LINGER_MS);
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof benefitGrantWorkflow>(input);
  }
  return { waiting };
}

/** The dispatcher's activity watches this long before handing back to the workflow. */
const DISPATCH_WATCH_MS = 30_000;
const DISPATCH_ROUNDS_PER_RUN = 200;

const { dispatchBenefitGrants } = proxyActivities<BenefitGrantActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

const { ensureBenefitGrantDispatcher, reconcileBenefitGrants } = proxyActivities<BenefitGrantActivities>({
  startToCloseTimeout: '1 minute',
});

/**
 * `benefit-grant-dispatcher:<task queue>`: whatever may change a customer's benefits marks them in
 * its own transaction; this workflow keeps an activity bringing the marked customers' grant rows
 * to what they should hold and waking the grant workflows that have work.
 */
export async function benefitGrantDispatcherWorkflow(): Promise<void> {
  const view = operatorView(benefitGrantDispatcherWaitingForQuery);
  for (let round = 0; round < DISPATCH_ROUNDS_PER_RUN; round += 1) {
    watchRound(view, 'customers whose benefits changed', round, {
      roundMs: DISPATCH_WATCH_MS,
      rounds: DISPATCH_ROUNDS_PER_RUN,
      work: 'brings their grant rows to what they should hold and wakes the grant workflows that have work',
    });
    await dispatchBenefitGrants({ watchMs: DISPATCH_WATCH_MS });
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof benefitGrantDispatcherWorkflow>();
}

/** Run by the `benefit-grant-dispatcher-watchdog` schedule. */
export async function ensureBenefitGrantDispatcherWorkflow(): Promise<{ started: boolean }> {
  return { started: await ensureBenefitGrantDispatcher() };
}

/** Run by the `reconcile-benefit-grants` schedule: wakes grants whose workflow start was lost. */
export async function reconcileBenefitGrantsWorkflow(): Promise<{ woken: number }> {
  return reconcileBenefitGrants();
}
