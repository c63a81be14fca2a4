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
