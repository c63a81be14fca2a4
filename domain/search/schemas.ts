import { z } from 'zod';
import { TEXT_MAX_LENGTH, textSchema } from '../platform/schemas.js';

// `GET /v1/search/`: the dashboard's global search (a Tollgate extension, not in Polar). One query
// looks through the organization's customers, orders and products at once (docs/web.md).

/** The kinds searched, each with the token scope resource that may read it. */
export const SEARCH_KINDS = ['customers', 'orders', 'products'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 20;

export const searchQuerySchema = z.object({
  query: textSchema({ min: 1, max: TEXT_MAX_LENGTH.name, trim: true }),
  organization_id: z.uuid({ message: 'Input should be a valid UUID' }).optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
});

const timestamp = z.iso.datetime({ offset: true });

export const searchCustomerSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  created_at: timestamp,
});

export const searchOrderSchema = z.object({
  id: z.uuid(),
  created_at: timestamp,
  status: z.string(),
  total_amount: z.number().int(),
  currency: z.string(),
  customer_email: z.string(),
  product_name: z.string(),
});

export const searchProductSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  is_archived: z.boolean(),
  created_at: timestamp,
});

/** At most `limit` of each kind, newest first; a kind the caller may not read stays empty. */
export const searchResultsSchema = z.object({
  customers: z.array(searchCustomerSchema),
  orders: z.array(searchOrderSchema),
  products: z.array(searchProductSchema),
});

export type SearchQuery = z.infer<typeof searchQuerySchema>;
export type SearchResults = z.infer<typeof searchResultsSchema>;
