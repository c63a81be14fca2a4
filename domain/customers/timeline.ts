// A customer's timeline for the seller (our extension): what they bought, refunds, plans and
// benefits, newest first. Emails are left to each order's timeline: the mail log is kept by
// address, across organizations, and a customer's page must show only its own seller's rows.

import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { customerTimelineSchema, type CustomerTimeline, type CustomerTimelineEntry } from './schemas.js';
import { findCustomerFor } from './service.js';

/** Enough for the page to tell the story; older history is in the order and subscription lists. */
export const CUSTOMER_TIMELINE_LIMIT = 100;

type Scope = { organizationId: string; customerId: string };

const entry = (
  fields: Pick<CustomerTimelineEntry, 'type' | 'at'> & Partial<CustomerTimelineEntry>,
): CustomerTimelineEntry => ({
  status: null,
  amount: null,
  currency: null,
  reference: null,
  order_id: null,
  subscription_id: null,
  ...fields,
});

async function orderEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    id: string;
    createdAt: Date;
    status: string;
    totalAmount: number;
    currency: string;
    productName: string | null;
  }>(
    `SELECT o.id, o.created_at AS "createdAt", o.status, o.total_amount AS "totalAmount", o.currency,
            p.name AS "productName"
     FROM orders o LEFT JOIN products p ON p.id = o.product_id
     WHERE o.customer_id = $2::uuid AND o.organization_id = $1::uuid
     ORDER BY o.created_at DESC LIMIT ${CUSTOMER_TIMELINE_LIMIT}`,
    [organizationId, customerId],
  );
  return rows.map((row) =>
    entry({
      type: 'order',
      at: row.createdAt.toISOString(),
      status: row.status,
      amount: row.totalAmount,
      currency: row.currency,
      reference: row.productName,
      order_id: row.id,
    }),
  );
}

async function refundEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    createdAt: Date;
    status: string;
    amount: number;
    currency: string;
    orderId: string;
  }>(
    `SELECT r.created_at AS "createdAt", r.status, r.amount, r.currency, r.order_id AS "orderId"
     FROM refunds r JOIN orders o ON o.id = r.order_id
     WHERE o.customer_id = $2::uuid AND r.organization_id = $1::uuid
     ORDER BY r.created_at DESC LIMIT ${CUSTOMER_TIMELINE_LIMIT}`,
    [organizationId, customerId],
  );
  return rows.map((row) =>
    entry({
      type: 'refund',
      at: row.createdAt.toISOString(),
      status: row.status,
      amount: row.amount,
      currency: row.currency,
      order_id: row.orderId,
    }),
  );
}

async function subscriptionEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    id: string;
    createdAt: Date;
    startedAt: Date | null;
    canceledAt: Date | null;
    endedAt: Date | null;
    productName: string;
  }>(
    `SELECT s.id, s.created_at AS "createdAt", s.started_at AS "startedAt", s.canceled_at AS "canceledAt",
            s.ended_at AS "endedAt", p.name AS "productName"
     FROM subscriptions s JOIN products p ON p.id = s.product_id
     WHERE s.customer_id = $2::uuid AND s.organization_id = $1::uuid
     ORDER BY s.created_at DESC LIMIT ${CUSTOMER_TIMELINE_LIMIT}`,
    [organizationId, customerId],
  );
  return rows.flatMap((row) => {
    const about = { reference: row.productName, subscription_id: row.id };
    return [
      entry({ type: 'subscription_started', at: (row.startedAt ?? row.createdAt).toISOString(), ...about }),
      ...(row.canceledAt
        ? [entry({ type: 'subscription_canceled', at: row.canceledAt.toISOString(), ...about })]
        : []),
      ...(row.endedAt
        ? [entry({ type: 'subscription_ended', at: row.endedAt.toISOString(), ...about })]
        : []),
    ];
  });
}

async function grantEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    grantedAt: Date | null;
    revokedAt: Date | null;
    description: string;
  }>(
    `SELECT g.granted_at AS "grantedAt", g.revoked_at AS "revokedAt", b.description
     FROM benefit_grants g JOIN benefits b ON b.id = g.benefit_id
     WHERE g.customer_id = $2::uuid AND b.organization_id = $1::uuid
       AND (g.granted_at IS NOT NULL OR g.revoked_at IS NOT NULL)
     ORDER BY COALESCE(g.revoked_at, g.granted_at) DESC LIMIT ${CUSTOMER_TIMELINE_LIMIT}`,
    [organizationId, customerId],
  );
  return rows.flatMap((row) => [
    ...(row.grantedAt
      ? [entry({ type: 'benefit_granted', at: row.grantedAt.toISOString(), reference: row.description })]
      : []),
    ...(row.revokedAt
      ? [entry({ type: 'benefit_revoked', at: row.revokedAt.toISOString(), reference: row.description })]
      : []),
  ]);
}

/** Newest first, the customer's beginning last; entries at one instant keep their sources' order. */
export async function getCustomerTimeline(db: Db, caller: Caller, id: string): Promise<CustomerTimeline> {
  const customer = await findCustomerFor(db, caller, { id });
  const scope = { organizationId: customer.organizationId, customerId: customer.id };
  const sources = await Promise.all([
    orderEntries(db, scope),
    refundEntries(db, scope),
    subscriptionEntries(db, scope),
    grantEntries(db, scope),
  ]);
  const events = sources.flat().sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  // A buyer's record is made in their first purchase's transaction, a moment after the instant that
  // order states: the story starts no later than its first event.
  const startedAt = Math.min(customer.createdAt.getTime(), ...events.map((event) => Date.parse(event.at)));
  const items = [...events, entry({ type: 'customer_created', at: new Date(startedAt).toISOString() })];
  return customerTimelineSchema.parse({
    customer_id: customer.id,
    items: items.slice(0, CUSTOMER_TIMELINE_LIMIT),
  });
}
