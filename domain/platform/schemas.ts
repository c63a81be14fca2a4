import { z } from 'zod';

/** Polar's list query: 1-based `page`, `limit` up to 100. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `sorting` may repeat in the query string (`?sorting=a&sorting=-b`); one value arrives as a string. */
export function sortingSchema<const T extends readonly [string, ...string[]]>(fields: T) {
  return z
    .union([z.enum(fields), z.array(z.enum(fields))])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .optional();
}

export function listResourceSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    pagination: z.object({ total_count: z.number().int().min(0), max_page: z.number().int().min(0) }),
  });
}

const METADATA_MAX_KEYS = 50;
const METADATA_KEY_MAX = 40;
const METADATA_STRING_MAX = 500;

/** Polar's metadata: up to 50 keys of ≤ 40 characters; values strings (≤ 500), integers, numbers or booleans. */
export const metadataSchema = z
  .record(
    z.string().min(1).max(METADATA_KEY_MAX),
    z.union([z.string().max(METADATA_STRING_MAX), z.number(), z.boolean()]),
  )
  .refine((metadata) => Object.keys(metadata).length <= METADATA_MAX_KEYS, {
    message: `At most ${METADATA_MAX_KEYS} metadata keys.`,
  });

export type Metadata = z.infer<typeof metadataSchema>;

/** Query filters Polar takes as one value or several (`?organization_id=a&organization_id=b`). */
export const oneOrManyUuids = z
  .union([z.uuid(), z.array(z.uuid())])
  .transform((value) => (Array.isArray(value) ? value : [value]));

/** `/{id}` path parameters, with the message Polar's API gives for a malformed id. */
export const idParamsSchema = z.object({ id: z.uuid({ message: 'Input should be a valid UUID' }) });

/**
 * `?metadata[key]=value` (deepObject) filters; Express's query parser hands them over as an object.
 * A value may repeat (any of them matches).
 */
export const metadataQuerySchema = z.record(
  z.string().min(1).max(METADATA_KEY_MAX),
  z.union([z.string(), z.array(z.string())]),
);
