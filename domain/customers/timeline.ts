// A customer's timeline for the seller (our extension): what they bought, refunds, plans and
// benefits, newest first, named as they were recorded when they happened (orders' product names,
// the products each plan has been on). Emails are left to each order's timeline: the mail log is kept by
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
  previous_reference: null,
  ends_at: null,
  ...fields,
});

async function orderEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    id: string;
    createdAt: Date;
    status: string;
    totalAmount: number;
    currency: string;
    productName: string;
  }>(
    // The product's name as the order recorded it: a product renamed since keeps its past orders'.
    `SELECT o.id, o.created_at AS "createdAt", o.status, o.total_amount AS "totalAmount", o.currency,
            o.product_name AS "productName"
     FROM orders o
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

/** The products a plan has been on, oldest first, named as they were then. */
type ProductSpell = { name: string; since: string };

/** The plan's product at `at`: the last one it took on or before then. */
function productAt(history: ProductSpell[], at: Date): string {
  let name = history[0]!.name;
  for (const spell of history) if (Date.parse(spell.since) <= at.getTime()) name = spell.name;
  return name;
}

async function subscriptionEntries(db: Db, { organizationId, customerId }: Scope) {
  const { rows } = await db.sql.query<{
    id: string;
    createdAt: Date;
    startedAt: Date | null;
    canceledAt: Date | null;
    endsAt: Date | null;
    endedAt: Date | null;
    productName: string;
    history: ProductSpell[];
  }>(
    `SELECT s.id, s.created_at AS "createdAt", s.started_at AS "startedAt", s.canceled_at AS "canceledAt",
            s.ends_at AS "endsAt", s.ended_at AS "endedAt", p.name AS "productName",
            coalesce((SELECT json_agg(json_build_object('name', h.product_name, 'since', h.since)
                                      ORDER BY h.since, h.created_at)
                      FROM subscription_products h WHERE h.subscription_id = s.id), '[]') AS history
     FROM subscriptions s JOIN products p ON p.id = s.product_id
     WHERE s.customer_id = $2::uuid AND s.organization_id = $1::uuid
     ORDER BY s.created_at DESC LIMIT ${CUSTOMER_TIMELINE_LIMIT}`,
    [organizationId, customerId],
  );
  return rows.flatMap((row) => {
    const startedAt = row.startedAt ?? row.createdAt;
    // A plan made without its history (seeded rows) has only its present product to go by.
    const history =
      row.history.length > 0 ? row.history : [{ name: row.productName, since: startedAt.toISOString() }];
    const about = (at: Date) => ({ reference: productAt(history, at), subscription_id: row.id });
    const changes = history.slice(1).map((spell, index) =>
      entry({
        type: 'subscription_changed',
        at: new Date(spell.since).toISOString(),
        reference: spell.name,
        previous_reference: history[index]!.name,
        subscription_id: row.id,
      }),
    );
    return [
      entry({ type: 'subscription_started', at: startedAt.toISOString(), ...about(startedAt) }),
      ...changes,
      ...(row.canceledAt
        ? [
            entry({
              type: 'subscription_canceled',
              at: row.canceledAt.toISOString(),
              // Set to end later (at the period's end) rather than ended at once.
              ends_at: row.endsAt && row.endsAt > row.canceledAt ? row.endsAt.toISOString() : null,
              ...about(row.canceledAt),
            }),
          ]
        : []),
      ...(row.endedAt
        ? [entry({ type: 'subscription_ended', at: row.endedAt.toISOString(), ...about(row.endedAt) })]
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
