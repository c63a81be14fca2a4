// Webhook endpoints (docs/webhooks.md): the seller creates, reads, changes and deletes them, and
// the interfaces webhooks ask of the outside (posting over HTTP, the delivery workflows). Fanning
// out the outbox is dispatch.ts, sending attempts.ts, the seller's delivery log and redelivery
// deliveries.ts, the dashboard's health and test events endpoint-activity.ts.
import { CURRENT_API_VERSION, type RequestedApiVersion } from '../platform/api-versions.js';
import type { Db } from '../../infra/db.js';
import { ORGANIZATION_MANAGERS, type Caller } from '../access/rules.js';
import { accessibleOrganizationIds, organizationAccess, organizationsWithRole } from '../access/service.js';
import { AppError, InvalidFieldError } from '../platform/errors.js';
import { pageToSkipTake, paginated } from '../platform/rules.js';
import { findAccessibleEndpoint, requireManager } from './access.js';
import {
  deleteWebhookEndpoint as deleteEndpointRow,
  insertWebhookEndpoint,
  listWebhookEndpoints as queryEndpoints,
  updateWebhookEndpoint as updateEndpointRow,
} from './repository.js';
import type { WebhookDeliveryRequest, WebhookDeliveryTarget } from './rules.js';
import type { WebhookEndpointCreate, WebhookEndpointListQuery, WebhookEndpointUpdate } from './schemas.js';
import { generateWebhookSecret } from './signing.js';
import { webhookEndpointView } from './views.js';

/** Where webhook answers come from: an HTTP POST to the endpoint (integrations/http/). */
export type HttpAnswer = { httpCode: number | null; response: string | null; error: string | null };

export type WebhookSender = {
  /**
   * Why the deployment may not deliver to `url` (its scheme, or an address its host resolves to),
   * in the seller's words; null when it may. Deliveries check again when they connect.
   */
  checkTarget(url: string): Promise<string | null>;
  /** Posts once, without following redirects; never throws: a failure is an answer with an error. */
  post(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer>;
};

/** A URL the deployment refuses is never stored; the refusal names no address it resolved to. */
async function assertDeliverable(targets: Pick<WebhookSender, 'checkTarget'>, url: string) {
  const refusal = await targets.checkTarget(url);
  if (refusal) throw new InvalidFieldError(['body', 'url'], refusal);
}

/** What webhooks ask of their delivery workflows; temporal/webhooks.ts implements it. */
export type WebhookWorkflows = {
  /** Queues one delivery on the resource's `webhook-delivery:<endpoint>:<resource>` workflow. */
  enqueueDelivery(
    target: { endpointId: string; resourceId: string },
    request: WebhookDeliveryRequest,
  ): Promise<void>;
  /** Hands a dispatch's events, in outbox order, to the endpoint's delivery workflow. */
  enqueueEndpointBatch(endpointId: string, batch: WebhookDeliveryTarget[]): Promise<void>;
  /** Starts the deployment's outbox dispatcher unless it runs; `true` when it was started. */
  ensureDispatcher(): Promise<boolean>;
};

/** A token acts for its organization; a signed-in user names one of theirs. */
function organizationOf(caller: Caller, organizationId: string | null | undefined): string {
  if (organizationId) return organizationId;
  if (caller.kind === 'organization_access_token') return caller.organizationId;
  throw new InvalidFieldError(
    ['body', 'organization_id'],
    'organization_id is required unless you use an organization token.',
    'missing',
  );
}

export async function createWebhookEndpoint(
  db: Db,
  targets: Pick<WebhookSender, 'checkTarget'>,
  caller: Caller,
  input: WebhookEndpointCreate,
  /** The version the creating request named: its payloads are what that client reads. */
  requestedVersion: RequestedApiVersion,
) {
  const organizationId = organizationOf(caller, input.organization_id);
  const access = await organizationAccess(db, caller, organizationId, ORGANIZATION_MANAGERS);
  if (access === 'none') throw new AppError('ResourceNotFound', 'Organization not found');
  if (access === 'read') {
    throw new AppError('NotPermitted', 'Only owners and admins can manage webhooks.');
  }
  await assertDeliverable(targets, input.url);
  const row = await insertWebhookEndpoint(db, {
    organizationId,
    url: input.url,
    name: input.name ?? null,
    apiVersion: input.api_version ?? requestedVersion ?? CURRENT_API_VERSION,
    format: input.format,
    secret: input.secret ?? generateWebhookSecret(),
    events: input.events,
  });
  return webhookEndpointView(row);
}

export async function listWebhookEndpoints(db: Db, caller: Caller, query: WebhookEndpointListQuery) {
  const accessible = await accessibleOrganizationIds(db, caller);
  const ids = query.organization_id
    ? accessible.filter((id) => query.organization_id!.includes(id))
    : accessible;
  const [rows, total] = await queryEndpoints(db, ids, pageToSkipTake(query));
  const managed = new Set(
    caller.kind === 'organization_access_token'
      ? [caller.organizationId]
      : await organizationsWithRole(db, caller.userId, ORGANIZATION_MANAGERS),
  );
  return paginated(
    rows.map((row) => webhookEndpointView(row, managed.has(row.organizationId) ? 'manager' : 'reader')),
    total,
    query,
  );
}

export async function getWebhookEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findAccessibleEndpoint(db, caller, id);
  const access = await organizationAccess(db, caller, row.organizationId, ORGANIZATION_MANAGERS);
  return webhookEndpointView(row, access === 'manage' ? 'manager' : 'reader');
}

export async function updateWebhookEndpoint(
  db: Db,
  targets: Pick<WebhookSender, 'checkTarget'>,
  caller: Caller,
  id: string,
  input: WebhookEndpointUpdate,
) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  if (input.url) await assertDeliverable(targets, input.url);
  const enabling = input.enabled === true && !row.enabled;
  const updated = await updateEndpointRow(
    db,
    { id, organizationId: row.organizationId },
    {
      modifiedAt: new Date(),
      ...(input.url ? { url: input.url } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.api_version ? { apiVersion: input.api_version } : {}),
      ...(input.format ? { format: input.format } : {}),
      ...(input.secret ? { secret: input.secret } : {}),
      ...(input.events ? { events: input.events } : {}),
      ...(input.enabled === false && row.enabled ? { enabled: false, disabledAt: new Date() } : {}),
      // Turned back on by the seller: the failure streak that disabled it no longer counts.
      ...(enabling
        ? { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailedEvents: 0 }
        : {}),
    },
  );
  return webhookEndpointView(updated);
}

/**
 * A new generated secret, in force for the next delivery: a receiver still checking with the old
 * one refuses events from then on, so the seller sets the new one first (Polar's reset).
 */
export async function resetWebhookEndpointSecret(db: Db, caller: Caller, id: string) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  const updated = await updateEndpointRow(
    db,
    { id, organizationId: row.organizationId },
    { modifiedAt: new Date(), secret: generateWebhookSecret() },
  );
  return webhookEndpointView(updated);
}

export async function deleteWebhookEndpoint(db: Db, caller: Caller, id: string) {
  const row = await findAccessibleEndpoint(db, caller, id);
  await requireManager(db, caller, row.organizationId);
  // Its events and attempts go with it; delivery workflows still queued find nothing and stop.
  await deleteEndpointRow(db, { id, organizationId: row.organizationId });
}
