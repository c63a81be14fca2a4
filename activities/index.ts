import type { Db } from '../infra/db.js';
import { createSystemActivities } from './system.js';

export type ActivityDeps = { db: Db; workerIdentity: string };

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
  };
}
