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
/**
 * Set (to the failure's class, `configuration`) while a step is held back by the payment
 * processor refusing the deployment's key or account; unset once the step goes through
 * (docs/payments.md, "Retry contract").
 */
export const PROCESSOR_PROBLEM = keyword('TollgateProcessorProblem');
/**
 * Set to the kind of stuck work (domain/operators/stuck-work.ts) while the run is on the
 * operators' page, by the stuck-work review's signal; unset when the work moves again.
 */
export const STUCK = keyword('TollgateStuck');

/** The kinds of stuck work (domain/operators/stuck-work.ts), each a value of `TollgateStuck`. */
export const STUCK_WORK_KINDS = [
  'activity_retrying',
  'outbox_event_old',
  'webhook_endpoint_failing',
  'checkout_unsettled',
] as const;

export type StuckWorkKind = (typeof STUCK_WORK_KINDS)[number];

/** The signal each Tollgate workflow takes from the stuck-work review (its operator view handles it). */
export const STUCK_SIGNAL = 'operatorStuck';

export type StuckSignal = { kind: StuckWorkKind | null };

/** Every custom search attribute, as `temporal server start-dev --search-attribute` names them. */
export const SEARCH_ATTRIBUTE_NAMES = [
  ORGANIZATION_ID,
  ENTITY_KIND,
  ENTITY_ID,
  STATUS,
  PROCESSOR_PROBLEM,
  STUCK,
].map((key) => key.name);

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

/**
 * Where a workflow stands, as operators read it: waiting for someone or something outside it (until
 * a deadline, or with none), or doing a step of its own. The `waitingFor` query answers its
 * sentence and the current details start with the same sentence, so the two never disagree.
 */
export type OperatorWait =
  | {
      kind: 'waiting';
      /** Who or what, in words: "the buyer to confirm payment". */
      waitingFor: string;
      /** When the wait ends by itself and what happens then; null when only they can end it. */
      until: Deadline | null;
      sinceMs: number;
      reason: string;
    }
  | { kind: 'working'; working: string; sinceMs: number; until: Deadline | null; reason: string | null }
  /** The run is over (a query of a closed run still answers). */
  | { kind: 'finished'; outcome: string; atMs: number };

/** A moment and what happens at it, as a clause: "the checkout expires". */
export type Deadline = { atMs: number; then: string };

/** ISO-8601 in UTC to the second: people read it, and milliseconds only add noise. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const untilClause = (until: Deadline) => `until ${until.then} at ${isoUtc(until.atMs)}`;

/**
 * The `waitingFor` answer: "the buyer to confirm payment, until the checkout expires at
 * 2026-11-28T11:00:00Z", "the payment processor to settle the refund, since …, with no deadline",
 * "its own work: charging payment attempt 1, since 2026-11-28T10:00:00Z", "nothing: the checkout
 * succeeded at …".
 */
export function waitingForSentence(wait: OperatorWait): string {
  if (wait.kind === 'finished') return `nothing: ${wait.outcome} at ${isoUtc(wait.atMs)}`;
  if (wait.kind === 'working') {
    const since = `its own work: ${wait.working}, since ${isoUtc(wait.sinceMs)}`;
    return wait.until ? `${since}, ${untilClause(wait.until)}` : since;
  }
  return wait.until
    ? `${wait.waitingFor}, ${untilClause(wait.until)}`
    : `${wait.waitingFor}, since ${isoUtc(wait.sinceMs)}, with no deadline`;
}

/**
 * Current details in the UI: `**Waiting** for <sentence>.` or `**Working**: <sentence>.`, then why,
 * so a workflow waiting on someone else reads differently from one busy with its own step.
 */
export function currentDetails(wait: OperatorWait): string {
  if (wait.kind === 'finished') return `**Finished**: ${wait.outcome} at ${isoUtc(wait.atMs)}.`;
  if (wait.kind === 'working') {
    const head = `**Working**: ${waitingForSentence(wait).slice('its own work: '.length)}.`;
    return wait.reason ? `${head}\n\n${wait.reason}` : head;
  }
  return `**Waiting** for ${waitingForSentence(wait)}.\n\n${wait.reason}`;
}

/** The name every Tollgate workflow answers its `waitingFor` query under (each defines its own). */
export const WAITING_FOR_QUERY = 'waitingFor';
