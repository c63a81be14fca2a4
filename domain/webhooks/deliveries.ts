// The seller's side of deliveries: the log of attempts, and sending one event again on request.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { accessibleOrganizationIds } from '../access/service.js';
import { AppError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import { requireManager } from './access.js';
import {
  findWebhookEvent,
  listWebhookDeliveries as queryDeliveries,
  startWebhookEventRound,
} from './repository.js';
import type { WebhookDeliveryListQuery } from './schemas.js';
import type { WebhookWorkflows } from './service.js';
import { webhookDeliveryView } from './views.js';

export async function listWebhookDeliveries(db: Db, caller: Caller, query: WebhookDeliveryListQuery) {
  const organizationIds = await accessibleOrganizationIds(db, caller);
  const [rows, total] = await queryDeliveries(
    db,
    { organizationIds, endpointIds: query.endpoint_id },
    pageToSkipTake(query),
  );
  return paginated(rows.map(webhookDeliveryView), total, query);
}

/**
 * Re-sends one webhook event to its endpoint, from the first attempt of the retry schedule, even
 * when it was delivered before. The new round is committed before the workflow hears of it, so a
 * failure in between answers an error and the caller asks again.
 */
export async function redeliverWebhookEvent(db: Db, workflows: WebhookWorkflows, caller: Caller, id: string) {
  const event = await findWebhookEvent(db, id, await accessibleOrganizationIds(db, caller));
  if (!event) throw new AppError('ResourceNotFound', 'Webhook event not found');
  await requireManager(db, caller, event.organizationId);
  const round = randomUUID();
  await startWebhookEventRound(db, { id, organizationId: event.organizationId, round });
  await workflows.enqueueDelivery(event, { webhookEventId: id, round });
}
