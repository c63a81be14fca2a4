import {
  reviewStuckWork,
  type OperatorWorkflows,
  type StuckWorkReview,
} from '../domain/operators/stuck-work-service.js';
import type { Db } from '../infra/db.js';

export type OperatorActivityDeps = { db: Db; publicUrl: string; workflows: { operators: OperatorWorkflows } };

export function createOperatorActivities({ db, publicUrl, workflows }: OperatorActivityDeps) {
  return {
    /** Keeps stuck runs marked `TollgateStuck` and drops stuck activities Temporal no longer retries. */
    async reviewStuckWork(): Promise<StuckWorkReview> {
      return reviewStuckWork({ db, publicUrl, workflows: workflows.operators });
    },
  };
}

export type OperatorActivities = ReturnType<typeof createOperatorActivities>;
