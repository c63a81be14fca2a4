import type { Client } from '@temporalio/client';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../infra/mailer.js';
import type { PaymentProcessor } from '../domain/payments/processor.js';
import { createCommerceActivities } from './commerce.js';
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
  /** Sandbox or Stripe: charges checkouts and refunds orders. */
  processor: PaymentProcessor;
  processorMetadata: Record<string, string>;
};

/** Every activity the worker registers, built from injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createInvitationActivities(deps),
    ...createWebhookActivities(deps),
    ...createCommerceActivities(deps),
  };
}
