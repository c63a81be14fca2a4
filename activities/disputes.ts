import { closeAcceptedDispute, recordDisputeEvent, type DisputeEvent } from '../domain/disputes/service.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import type { Db } from '../infra/db.js';
import { withRetryContract } from './failures.js';

export type DisputeActivityDeps = { db: Db; processor: PaymentProcessor };

/** The steps of `dispute:<processor dispute id>`; each is idempotent. */
export function createDisputeActivities(deps: DisputeActivityDeps) {
  return withRetryContract({
    recordDisputeEvent(event: DisputeEvent) {
      return recordDisputeEvent(deps.db, deps.processor.name, event);
    },
    closeAcceptedDispute(processorDisputeId: string) {
      return closeAcceptedDispute(deps.db, deps.processor, processorDisputeId);
    },
  });
}

export type DisputeActivities = ReturnType<typeof createDisputeActivities>;
