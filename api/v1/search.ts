import type { Db } from '../../infra/db.js';
import { searchQuerySchema, searchResultsSchema } from '../../domain/search/schemas.js';
import { search } from '../../domain/search/service.js';
import type { OperationRegistry } from '../http/operations.js';

export function registerSearchOperations(api: OperationRegistry, ctx: { db: Db }) {
  api.add(
    {
      method: 'get',
      path: '/search/',
      operationId: 'search:search',
      summary: "Find an organization's customers, orders and products by name, email or id",
      extension:
        'Tollgate extension, not in Polar: the dashboard’s global search. Ids match whole, names and emails by case-insensitive part; a token with scopes needs customers:read, and finds orders and products only with orders:read and products:read.',
      tag: 'search',
      // Customers are what every search shows; orders and products need their own read scope besides,
      // which the service checks per kind (readableKinds).
      scope: 'customers',
      query: searchQuerySchema,
      response: searchResultsSchema,
    },
    async ({ query, caller }) => search(ctx.db, caller, query),
  );
}
