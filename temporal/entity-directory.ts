// The starters' side of what operators see (temporal/operators.ts): which organization an entity
// belongs to and where the dashboard shows it, looked up when its workflow starts.

import type { Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import proto from '@temporalio/proto';
import type { Db } from '../infra/db.js';
import {
  entitySearchAttributes,
  SEARCH_ATTRIBUTE_NAMES,
  systemSearchAttributes,
  type EntityKind,
  type OperatorMemo,
} from '../domain/operators/rules.js';

type EntityStartOptions = { typedSearchAttributes?: SearchAttributePair[]; memo?: OperatorMemo };

/** What each starter adds to its workflow start options. */
export type OperatorContext = {
  entity(kind: EntityKind, id: string, status: string): Promise<EntityStartOptions>;
  system(kind: EntityKind): EntityStartOptions;
};

/** Starts without attributes: a namespace where they are not registered, and unit-level tests. */
export const NO_OPERATOR_CONTEXT: OperatorContext = {
  entity: async () => ({}),
  system: () => ({}),
};

type Placement = { organizationId: string; path: string };

/** An entity's organization and dashboard page; null when the row is gone. */
async function place(db: Db, kind: EntityKind, id: string): Promise<Placement | null> {
  const select = { organizationId: true } as const;
  switch (kind) {
    case 'checkout': {
      const row = await db.checkout.findUnique({ where: { id }, select });
      return row && { organizationId: row.organizationId, path: '/dashboard/checkouts' };
    }
    case 'subscription': {
      const row = await db.subscription.findUnique({ where: { id }, select });
      return row && { organizationId: row.organizationId, path: `/dashboard/subscriptions/${id}` };
    }
    case 'refund': {
      const row = await db.refund.findUnique({ where: { id }, select: { ...select, orderId: true } });
      return row && { organizationId: row.organizationId, path: `/dashboard/orders/${row.orderId}` };
    }
    case 'invitation': {
      const row = await db.invitation.findUnique({ where: { id }, select });
      return row && { organizationId: row.organizationId, path: '/dashboard' };
    }
    case 'benefit_grant': {
      // The grant's workflow is per customer and benefit; the benefit's page lists its grants.
      const benefitId = id.slice(id.indexOf(':') + 1);
      const row = await db.benefit.findUnique({ where: { id: benefitId }, select });
      return row && { organizationId: row.organizationId, path: `/dashboard/benefits/${benefitId}` };
    }
    case 'payment_method_setup': {
      const row = await db.customer.findUnique({ where: { id }, select });
      return row && { organizationId: row.organizationId, path: `/dashboard/customers/${id}` };
    }
    case 'payment_method_detach': {
      const row = await db.customerPaymentMethod.findUnique({
        where: { id },
        select: { ...select, customerId: true },
      });
      return row && { organizationId: row.organizationId, path: `/dashboard/customers/${row.customerId}` };
    }
    case 'webhook_delivery': {
      const row = await db.webhookEndpoint.findUnique({ where: { id }, select });
      return row && { organizationId: row.organizationId, path: `/dashboard/webhooks/${id}` };
    }
    default:
      return null;
  }
}

/** Placements never change; this many are kept, so a burst about one endpoint reads it once. */
const CACHE_LIMIT = 10_000;

/** Looks entities up in the deployment's database and links them under its public URL. */
export function operatorContext(db: Db, publicUrl: string): OperatorContext {
  const cache = new Map<string, Placement>();
  const cached = async (kind: EntityKind, id: string) => {
    const key = `${kind}:${id}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const found = await place(db, kind, id);
    if (found) {
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(key, found);
    }
    return found;
  };
  return {
    async entity(kind, id, status) {
      const placement = await cached(kind, id);
      return {
        typedSearchAttributes: entitySearchAttributes({
          kind,
          id,
          status,
          organizationId: placement?.organizationId ?? null,
        }),
        ...(placement ? { memo: { dashboard_url: `${publicUrl}${placement.path}` } } : {}),
      };
    },
    system: (kind) => ({ typedSearchAttributes: systemSearchAttributes(kind) }),
  };
}

const KEYWORD = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;

/**
 * Registers the search attributes in the namespace (a no-op when they exist). `false` when the
 * server refuses (Temporal Cloud registers them in its own console, a restricted operator API):
 * the deployment then starts its workflows without them rather than failing every start.
 */
export async function registerSearchAttributes(
  temporal: Client,
  namespace: string,
): Promise<{ registered: true } | { registered: false; reason: string }> {
  try {
    await temporal.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTE_NAMES.map((name) => [name, KEYWORD])),
    });
    return { registered: true };
  } catch (error) {
    return { registered: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The operator context of a process (API, worker): registers the attributes, and falls back to
 * bare starts with a warning when the namespace will not take them.
 */
export async function prepareOperatorContext(deps: {
  temporal: Client;
  namespace: string;
  db: Db;
  publicUrl: string;
  warn: (message: string) => void;
}): Promise<OperatorContext> {
  const registration = await registerSearchAttributes(deps.temporal, deps.namespace);
  if (registration.registered) return operatorContext(deps.db, deps.publicUrl);
  deps.warn(
    `Tollgate's search attributes (${SEARCH_ATTRIBUTE_NAMES.join(', ')}) could not be registered in namespace ` +
      `"${deps.namespace}" (${registration.reason}); workflows start without them. Register them as Keyword to find workflows by organization, entity and status.`,
  );
  return NO_OPERATOR_CONTEXT;
}
