import { purgeExpiredIdempotencyKeys, purgeIdleRateLimitCounters } from '../domain/platform/repository.js';
import { databaseTime, type Db } from '../infra/db.js';

export type SystemActivityDeps = { db: Db; workerIdentity: string };

export function createSystemActivities({ db, workerIdentity }: SystemActivityDeps) {
  return {
    /**
     * Proves, for readiness, that a worker polls the activity queue and reaches PostgreSQL with
     * its own connection pool (the API's pool being healthy says nothing about the worker's).
     */
    async checkWorkerDatabase(): Promise<{ workerIdentity: string; databaseTime: string }> {
      return { workerIdentity, databaseTime: ((await databaseTime(db)) ?? new Date()).toISOString() };
    },

    /** Idempotency keys answer replays for 24 hours; after that they are only weight. */
    async purgeExpiredIdempotencyKeys(): Promise<{ deleted: number }> {
      return { deleted: await purgeExpiredIdempotencyKeys(db) };
    },

    async purgeIdleRateLimitCounters(): Promise<{ deleted: number }> {
      return { deleted: await purgeIdleRateLimitCounters(db) };
    },
  };
}

export type SystemActivities = ReturnType<typeof createSystemActivities>;
