import { z } from 'zod';
import type { Db } from '../../infra/db.js';
import type { Caller } from '../access/rules.js';
import { organizationsToList } from '../access/service.js';
import { InvalidFieldError } from '../platform/errors.js';
import { findCustomers, findOrders, findProducts } from './repository.js';
import { SEARCH_KINDS, type SearchKind, type SearchQuery, type SearchResults } from './schemas.js';

const EMPTY: SearchResults = { customers: [], orders: [], products: [] };

/**
 * The kinds a caller may search. A token with scopes sees a kind only with its `<kind>:read` (or
 * `:write`) scope, as the kind's own list would require; a token without scopes and a signed-in
 * member see all three. The operation itself asks for customers:read (api/v1/search.ts), so a
 * token that may call it always finds customers.
 */
export function readableKinds(caller: Caller): SearchKind[] {
  if (caller.kind !== 'organization_access_token' || caller.scopes.length === 0) return [...SEARCH_KINDS];
  return SEARCH_KINDS.filter(
    (kind) => caller.scopes.includes(`${kind}:read`) || caller.scopes.includes(`${kind}:write`),
  );
}

const isUuid = (text: string) => z.uuid().safeParse(text).success;

/**
 * `GET /v1/search/`: the organization's customers, orders and products matching `query`, at most
 * `limit` of each. The organization is found as a list finds it: a token's own, or the signed-in
 * user's one (named with `organization_id` when they belong to several); another organization's id
 * finds nothing, as a list filtered to it would.
 */
export async function search(db: Db, caller: Caller, query: SearchQuery): Promise<SearchResults> {
  const kinds = readableKinds(caller);
  const organizationIds = await organizationsToList(db, caller, query.organization_id);
  if (organizationIds.length > 1) {
    throw new InvalidFieldError(
      ['query', 'organization_id'],
      'Search covers one organization at a time: choose it with organization_id.',
    );
  }
  const [organizationId] = organizationIds;
  if (!organizationId) return EMPTY;

  const text = query.query;
  // Ids are matched whole, names and emails by part.
  const id = isUuid(text) ? text.toLowerCase() : null;
  // The order number a buyer quotes from their receipt (domain/orders/rules.ts orderNumber).
  const orderNumber = /^[0-9a-f]{8}$/i.test(text) ? text.toLowerCase() : null;
  const wants = (kind: SearchKind) => kinds.includes(kind);
  const [customers, orders, products] = await Promise.all([
    wants('customers') ? findCustomers(db, organizationId, text, id, query.limit) : [],
    wants('orders') ? findOrders(db, organizationId, text, { id, number: orderNumber }, query.limit) : [],
    wants('products') ? findProducts(db, organizationId, text, id, query.limit) : [],
  ]);
  return {
    customers: customers.map((customer) => ({
      id: customer.id,
      email: customer.email,
      name: customer.name,
      created_at: customer.createdAt.toISOString(),
    })),
    orders: orders.map((order) => ({
      id: order.id,
      created_at: order.createdAt.toISOString(),
      status: order.status,
      total_amount: order.totalAmount,
      currency: order.currency,
      customer_email: order.customer.email,
      product_name: order.product.name,
    })),
    products: products.map((product) => ({
      id: product.id,
      name: product.name,
      is_archived: product.isArchived,
      created_at: product.createdAt.toISOString(),
    })),
  };
}
