// The starters' side of what operators see (temporal/operators.ts): which organization an entity
// belongs to, where the dashboard shows it and what its workflow run is for (Temporal's user
// metadata), looked up when its workflow starts.

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
import { describeEntityRun, describeSystemRun, type EntityFacts } from '../domain/operators/views.js';
import { findBenefitForOperators } from '../domain/benefits/repository.js';
import { findCheckoutForOperators } from '../domain/checkouts/repository.js';
import { findCustomerForOperators } from '../domain/customers/repository.js';
import { findInvitationForOperators } from '../domain/invitations/repository.js';
import { findPaymentMethodForOperators } from '../domain/payment-methods/repository.js';
import { findRefundForOperators } from '../domain/refunds/repository.js';
import { findSubscriptionForOperators } from '../domain/subscriptions/repository.js';
import { findWebhookEndpointForOperators } from '../domain/webhooks/repository.js';

type EntityStartOptions = {
  typedSearchAttributes?: SearchAttributePair[];
  memo?: OperatorMemo;
  staticSummary?: string;
  staticDetails?: string;
};

/** What each starter adds to its workflow start options. */
export type OperatorContext = {
  /** `resourceId`: a webhook delivery workflow's resource (one workflow per endpoint and resource). */
  entity(
    kind: EntityKind,
    id: string,
    status: string,
    options?: { resourceId?: string },
  ): Promise<EntityStartOptions>;
  system(kind: EntityKind): EntityStartOptions;
  /** Whether runs carry Tollgate's search attributes (the namespace has them registered). */
  searchAttributes: boolean;
};

/** Starts without attributes: a namespace where they are not registered, and unit-level tests. */
export const NO_OPERATOR_CONTEXT: OperatorContext = {
  entity: async () => ({}),
  system: () => ({}),
  searchAttributes: false,
};

/** An entity's organization, dashboard page and facts; null when the row is gone. */
type Placement = { organizationId: string; path: string; facts: EntityFacts };

async function place(db: Db, kind: EntityKind, id: string): Promise<Placement | null> {
  switch (kind) {
    case 'checkout': {
      const row = await findCheckoutForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: '/dashboard/checkouts',
          facts: {
            kind,
            id,
            organizationName: row.organization.name,
            productName: row.product.name,
            recurringInterval: row.product.recurringInterval,
            buyerEmail: row.customerEmail ?? row.customer?.email ?? null,
            totalAmount: row.totalAmount,
            currency: row.currency,
            expiresAtMs: row.expiresAt.getTime(),
          },
        }
      );
    }
    case 'subscription': {
      const row = await findSubscriptionForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: `/dashboard/subscriptions/${id}`,
          facts: {
            kind,
            id,
            organizationName: row.organization.name,
            productName: row.product.name,
            recurringInterval: row.recurringInterval,
            customerEmail: row.customer.email,
            startedAtMs: row.startedAt?.getTime() ?? null,
          },
        }
      );
    }
    case 'refund': {
      const row = await findRefundForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: `/dashboard/orders/${row.orderId}`,
          facts: {
            kind,
            id,
            organizationName: row.organization.name,
            orderId: row.orderId,
            productName: row.order.product.name,
            customerEmail: row.customer.email,
            amount: row.amount,
            taxAmount: row.taxAmount,
            currency: row.currency,
            reason: row.reason,
          },
        }
      );
    }
    case 'invitation': {
      const row = await findInvitationForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: '/dashboard',
          facts: {
            kind,
            id,
            organizationName: row.organization.name,
            email: row.email,
            role: row.role,
            inviterName: row.inviter.name,
            expiresAtMs: row.expiresAt.getTime(),
          },
        }
      );
    }
    case 'benefit_grant': {
      // The grant's workflow is per customer and benefit; the benefit's page lists its grants.
      const customerId = id.slice(0, id.indexOf(':'));
      const benefitId = id.slice(id.indexOf(':') + 1);
      const [benefit, customer] = await Promise.all([
        findBenefitForOperators(db, benefitId),
        findCustomerForOperators(db, customerId),
      ]);
      return (
        benefit && {
          organizationId: benefit.organizationId,
          path: `/dashboard/benefits/${benefitId}`,
          facts: {
            kind,
            organizationName: benefit.organization.name,
            benefitId,
            benefitDescription: benefit.description,
            benefitType: benefit.type,
            customerId,
            customerEmail: customer?.email ?? null,
          },
        }
      );
    }
    case 'payment_method_setup': {
      const row = await findCustomerForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: `/dashboard/customers/${id}`,
          facts: {
            kind,
            organizationName: row.organization.name,
            customerId: id,
            customerEmail: row.email,
          },
        }
      );
    }
    case 'payment_method_detach': {
      const row = await findPaymentMethodForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: `/dashboard/customers/${row.customerId}`,
          facts: {
            kind,
            id,
            organizationName: row.customer.organization.name,
            customerEmail: row.customer.email,
            brand: row.brand,
            last4: row.last4,
          },
        }
      );
    }
    case 'webhook_delivery': {
      const row = await findWebhookEndpointForOperators(db, id);
      return (
        row && {
          organizationId: row.organizationId,
          path: `/dashboard/webhooks/${id}`,
          facts: { kind, endpointId: id, organizationName: row.organization.name, url: row.url },
        }
      );
    }
    default:
      return null;
  }
}

/**
 * This many placements are kept, so a burst about one endpoint reads it once. Organizations and
 * pages never change; the facts describe a run as of its start, and a row read a moment earlier
 * does as well as a fresh one.
 */
const CACHE_LIMIT = 10_000;

/**
 * Looks entities up in the deployment's database and links them under its public URL. Without
 * `searchAttributes` (a namespace that does not have them) starts still carry memo and metadata.
 */
export function operatorContext(
  db: Db,
  publicUrl: string,
  { searchAttributes = true }: { searchAttributes?: boolean } = {},
): OperatorContext {
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
    async entity(kind, id, status, options = {}) {
      const placement = await cached(kind, id);
      const attributes = searchAttributes
        ? {
            typedSearchAttributes: entitySearchAttributes({
              kind,
              id,
              status,
              organizationId: placement?.organizationId ?? null,
            }),
          }
        : {};
      if (!placement) return attributes;
      const dashboardUrl = `${publicUrl}${placement.path}`;
      const run = describeEntityRun(placement.facts, { dashboardUrl, ...options });
      return {
        ...attributes,
        memo: { dashboard_url: dashboardUrl },
        staticSummary: run.summary,
        staticDetails: run.details,
      };
    },
    system(kind) {
      const run = describeSystemRun(kind);
      return {
        ...(searchAttributes ? { typedSearchAttributes: systemSearchAttributes(kind) } : {}),
        ...(run ? { staticSummary: run.summary, staticDetails: run.details } : {}),
      };
    },
    searchAttributes,
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
 * starts without them (with memo and summaries still) and a warning when the namespace will not
 * take them.
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
  return operatorContext(deps.db, deps.publicUrl, { searchAttributes: false });
}
