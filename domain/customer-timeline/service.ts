// A customer's timeline for the seller (our extension): what they bought, refunds, plans and
// benefits, newest first, named as they were recorded when they happened (orders' product names,
// the products each plan has been on). Emails are left to each order's timeline: the mail log is kept by
// address, across organizations, and a customer's page must show only its own seller's rows.

import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { listCustomerGrantHistory } from '../benefit-grants/repository.js';
import { listCustomerOrderHistory } from '../orders/repository.js';
import { listCustomerRefundHistory } from '../refunds/repository.js';
import { listCustomerSubscriptionHistory, type ProductSpell } from '../subscriptions/repository.js';
import {
  customerTimelineSchema,
  type CustomerTimeline,
  type CustomerTimelineEntry,
} from '../customers/schemas.js';
import { findCustomerFor } from '../customers/service.js';

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
  const rows = await listCustomerOrderHistory(db.sql, organizationId, customerId, CUSTOMER_TIMELINE_LIMIT);
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
  const rows = await listCustomerRefundHistory(db.sql, organizationId, customerId, CUSTOMER_TIMELINE_LIMIT);
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

/** The plan's product at `at`: the last one it took on or before then. */
function productAt(history: ProductSpell[], at: Date): string {
  let name = history[0]!.name;
  for (const spell of history) if (Date.parse(spell.since) <= at.getTime()) name = spell.name;
  return name;
}

async function subscriptionEntries(db: Db, { organizationId, customerId }: Scope) {
  const rows = await listCustomerSubscriptionHistory(
    db.sql,
    organizationId,
    customerId,
    CUSTOMER_TIMELINE_LIMIT,
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
  const rows = await listCustomerGrantHistory(db.sql, organizationId, customerId, CUSTOMER_TIMELINE_LIMIT);
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
