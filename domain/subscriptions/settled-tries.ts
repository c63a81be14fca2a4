// A try of an unpaid order whose step is run again after it settled: the worker died once the
// settlement committed, before the workflow heard the answer. The answer is given again, from the
// try's record, so that the workflow still sends what follows it (the failed-payment email, the
// receipt); their keys name the order and the try, so nothing goes twice. Without this the retry
// answered `stale` and the email was lost (workflows/subscription-crashes.wf.test.ts).
import type { Db } from '../../infra/db.js';
import { lastPaymentAttemptOf } from '../orders/repository.js';
import type { CollectOutcome } from './collection.js';
import type { SubscriptionStepRow } from './repository.js';

/**
 * What collecting try `attempt` of the order answered, when that try is settled and nothing has
 * happened to the subscription since (no later try); null otherwise (the step is stale).
 */
export async function answerOfSettledTry(
  db: Db,
  row: SubscriptionStepRow,
  order: { id: string; status: string },
  attempt: number,
): Promise<CollectOutcome | null> {
  // The order's last try: a paid order has no try after its paid one, and a failed try is this
  // one when the subscription counts exactly `attempt` failures.
  const recorded = await lastPaymentAttemptOf(db.sql, order.id);
  if (!recorded) return null;
  const charge = {
    status: recorded.status as 'succeeded' | 'failed',
    message: recorded.message,
    declineCode: recorded.declineCode,
    refused: recorded.isRefused,
  };
  if (recorded.status === 'succeeded') {
    return order.status === 'paid' ? { outcome: 'paid', charge: { ...charge, message: null } } : null;
  }
  // A later try (or a paid one) has settled since: this answer is out of date.
  if (recorded.status !== 'failed' || row.failedAttempts !== attempt) return null;
  // Only dunning sets these statuses; a final order's tries keep the plan's (and send no email).
  if (row.status === 'unpaid') return { outcome: 'unpaid', notify: true, charge };
  if (row.status === 'past_due' && row.nextAttemptAt) {
    return { outcome: 'past_due', nextAttemptAt: row.nextAttemptAt.toISOString(), notify: true, charge };
  }
  return null;
}
