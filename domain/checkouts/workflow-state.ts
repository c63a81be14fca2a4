// What a checkout's workflow reads of its checkout, and the reconciler that starts or wakes the
// workflows a crash or a Temporal outage left without one.
import type { Db } from '../../infra/db.js';
import { findCheckoutProgress, findStalledConfirmations, findUnfinishedCheckouts } from './repository.js';
import { checkoutWorkflowId } from './rules.js';
import type { CheckoutStatus } from './schemas.js';
import type { CheckoutWorkflows } from './service.js';

export type CheckoutWorkflowState = {
  status: CheckoutStatus;
  expiresAtMs: number;
  paymentAttempt: number;
  paymentId: string | null;
  /** The payment waits for the buyer to authenticate (3-D Secure) on the hosted page. */
  awaitingAuthentication: boolean;
};

export async function checkoutWorkflowState(db: Db, id: string): Promise<CheckoutWorkflowState | null> {
  const row = await findCheckoutProgress(db, id);
  if (!row) return null;
  return {
    status: row.status as CheckoutStatus,
    expiresAtMs: row.expiresAt.getTime(),
    paymentAttempt: row.paymentAttempt,
    paymentId: row.paymentId,
    awaitingAuthentication: row.status === 'confirmed' && row.paymentClientSecret !== null,
  };
}

/** Grace for a just-created checkout whose workflow start is still on its way. */
const RECONCILE_MIN_AGE_MS = 60_000;
/**
 * Grace for a confirmation's signal, which the API sends right after the commit: past it, the API
 * died in between, and the buyer waits for their charge only until the reconciler's next run.
 */
const STALLED_CONFIRMATION_AGE_MS = 15_000;

/**
 * The healing path for a crash or a Temporal outage between a commit and what should follow it:
 * starts the workflow of every unfinished checkout that has none, and wakes the workflow of every
 * confirmation it was never told about (a wake-up is harmless: the workflow re-reads the row and
 * charges an attempt at most once).
 */
export async function reconcileCheckoutWorkflows(
  db: Db,
  workflows: CheckoutWorkflows,
  now = new Date(),
): Promise<{ started: string[]; woken: string[] }> {
  const before = new Date(now.getTime() - RECONCILE_MIN_AGE_MS);
  const unfinished = await findUnfinishedCheckouts(db, before, 500);
  const started = await workflows.startMissing(unfinished.map(({ id }) => id));
  const stalled = await findStalledConfirmations(
    db,
    new Date(now.getTime() - STALLED_CONFIRMATION_AGE_MS),
    500,
  );
  for (const { id, paymentAttempt } of stalled) await workflows.signalConfirmed(id, paymentAttempt);
  return { started, woken: stalled.map(({ id }) => checkoutWorkflowId(id)) };
}
