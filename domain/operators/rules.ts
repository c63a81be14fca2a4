// What operators see of a workflow in the Temporal UI: search attributes to find it by
// organization, entity and status, and a memo linking back to the entity in the dashboard.
// Pure: imported by the workflows (Temporal's sandbox) and by their starters (temporal/).

import type { defineSearchAttributeKey, SearchAttributePair } from '@temporalio/common';

type KeywordKey = ReturnType<typeof defineSearchAttributeKey<'KEYWORD'>>;

/** What `defineSearchAttributeKey` makes, without the SDK at run time in a pure file. */
const keyword = (name: string): KeywordKey => ({ name, type: 'KEYWORD' });

export const ORGANIZATION_ID = keyword('TollgateOrganizationId');
export const ENTITY_KIND = keyword('TollgateEntityKind');
export const ENTITY_ID = keyword('TollgateEntityId');
export const STATUS = keyword('TollgateStatus');

/** Every custom search attribute, as `temporal server start-dev --search-attribute` names them. */
export const SEARCH_ATTRIBUTE_NAMES = [ORGANIZATION_ID, ENTITY_KIND, ENTITY_ID, STATUS].map(
  (key) => key.name,
);

/**
 * The `patched()` id guarding status updates from inside workflows: an upsert is a command, so a
 * history recorded before it existed replays without one.
 */
export const STATUS_PATCH = 'operators-status';

export type EntityKind =
  | 'checkout'
  | 'subscription'
  | 'refund'
  | 'invitation'
  | 'benefit_grant'
  | 'payment_method_setup'
  | 'payment_method_detach'
  | 'webhook_delivery'
  | 'webhook_dispatcher'
  | 'benefit_grant_dispatcher'
  | 'customer_meter_refresher';

/** The memo every entity workflow carries. */
export type OperatorMemo = { dashboard_url: string };

/** An entity workflow's attributes at start: who it belongs to, what it is and where it stands. */
export function entitySearchAttributes(entity: {
  kind: EntityKind;
  id: string;
  organizationId: string | null;
  status: string;
}): SearchAttributePair[] {
  return [
    { key: ENTITY_KIND, value: entity.kind },
    { key: ENTITY_ID, value: entity.id },
    { key: STATUS, value: entity.status },
    ...(entity.organizationId ? [{ key: ORGANIZATION_ID, value: entity.organizationId }] : []),
  ];
}

/** A deployment-wide workflow (a dispatcher, a refresher) has a kind and a status, no owner. */
export function systemSearchAttributes(kind: EntityKind): SearchAttributePair[] {
  return [
    { key: ENTITY_KIND, value: kind },
    { key: STATUS, value: 'running' },
  ];
}

/** Current details in the UI: waiting on someone else (until when, if known) reads differently from working. */
export function waitingDetails(what: string, reason: string, until?: number | null): string {
  return `**Waiting** for ${what}${until ? ` until ${new Date(until).toISOString()}` : ''}.\n\n${reason}`;
}

export function workingDetails(what: string): string {
  return `**Working**: ${what}.`;
}
