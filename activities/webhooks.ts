import { Context } from '@temporalio/activity';
import { webhookEndpointDisabledEmail } from '../domain/emails/rules.js';
import type { WebhookDeliveryTarget } from '../domain/webhooks/rules.js';
import {
  attemptWebhookDelivery,
  deliverWebhookEventBatch,
  findDisabledEndpointNotice,
  recordWebhookEventFailure,
} from '../domain/webhooks/attempts.js';
import { DISPATCH_BATCH_SIZE, dispatchOutboxEvents } from '../domain/webhooks/dispatch.js';
import { renderWebhookData } from './webhook-payloads.js';
import type { WebhookSender, WebhookWorkflows } from '../domain/webhooks/service.js';
import type { Db } from '../infra/db.js';
import type { Mailer } from '../domain/emails/mailer.js';

export type WebhookActivityDeps = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  workflows: { webhooks: WebhookWorkflows };
  /** How attempts reach endpoints (HTTP in a deployment; tests may record instead). */
  webhookSender: WebhookSender;
};

/** How often the dispatcher looks at the outbox while it is empty: the idle delivery latency. */
const OUTBOX_POLL_MS = 200;

export function createWebhookActivities({
  db,
  mailer,
  publicUrl,
  workflows: starters,
  webhookSender,
}: WebhookActivityDeps) {
  const workflows = starters.webhooks;
  return {
    /**
     * Dispatches outbox events as they appear, for up to `watchMs`; returns once the outbox was
     * drained after dispatching something, or at the end of the watch. An indexed query per poll
     * costs less than a workflow timer per poll in Temporal's history, and the heartbeat lets a
     * dead worker's watch move elsewhere.
     */
    async dispatchOutboxEvents({ watchMs }: { watchMs: number }): Promise<{ dispatched: number }> {
      const context = Context.current();
      const deadline = Date.now() + watchMs;
      let dispatched = 0;
      for (;;) {
        const batch = await dispatchOutboxEvents(db, workflows, renderWebhookData);
        dispatched += batch;
        context.heartbeat();
        if (batch === DISPATCH_BATCH_SIZE && Date.now() < deadline) continue;
        if (dispatched > 0 || Date.now() >= deadline) return { dispatched };
        await context.sleep(OUTBOX_POLL_MS);
      }
    },

    /** First attempts of one endpoint's events; a heartbeat per attempt, as a call can take a while. */
    async deliverWebhookEvents(input: { endpointId: string; requests: WebhookDeliveryTarget[] }) {
      const context = Context.current();
      return deliverWebhookEventBatch(db, workflows, webhookSender, input, () => context.heartbeat());
    },

    async ensureWebhookDispatcher(): Promise<boolean> {
      return workflows.ensureDispatcher();
    },

    async attemptWebhookDelivery(input: { webhookEventId: string; round: string; attempt: number }) {
      return attemptWebhookDelivery(db, webhookSender, input);
    },

    async recordWebhookEventFailure(input: {
      webhookEventId: string;
      endpointId: string;
      round: string;
      gone: boolean;
    }) {
      return recordWebhookEventFailure(db, input);
    },

    /** One email per owner per disabling: the key carries the time the endpoint was disabled. */
    async notifyWebhookEndpointDisabled(input: { endpointId: string; disabledAt: string }) {
      const notice = await findDisabledEndpointNotice(db, input.endpointId);
      if (!notice || notice.disabledAt.toISOString() !== input.disabledAt) return { sent: 0 };
      let sent = 0;
      for (const owner of notice.owners) {
        const result = await mailer.send({
          to: owner.email,
          idempotencyKey: `webhook-endpoint-disabled:${input.endpointId}:${input.disabledAt}:${owner.email}`,
          ...webhookEndpointDisabledEmail({
            ownerName: owner.name,
            organizationName: notice.organizationName,
            endpointUrl: notice.url,
            reason: notice.reason,
            url: `${publicUrl}/`,
          }),
        });
        if (result === 'sent') sent += 1;
      }
      return { sent };
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
