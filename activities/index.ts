import type { Client } from '@temporalio/client';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../infra/mailer.js';
import { createInvitationActivities } from './invitations.js';
import { createSystemActivities } from './system.js';
import { createWebhookActivities } from './webhooks.js';

export type ActivityDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** For activities that start or signal workflows (reconcilers). */
  temporal: Client;
  taskQueue: string;
  workerIdentity: string;
};

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createInvitationActivities(deps),
    ...createWebhookActivities(deps),
  };
}
