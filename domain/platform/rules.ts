import type { PageQuery } from './schemas.js';

export function pageToSkipTake({ page, limit }: PageQuery) {
  return { skip: (page - 1) * limit, take: limit };
}

export function paginated<T>(items: T[], totalCount: number, { limit }: PageQuery) {
  return { items, pagination: { total_count: totalCount, max_page: Math.ceil(totalCount / limit) } };
}

/** `-field` sorts descending (Polar's convention). */
export function parseSorting<F extends string>(
  sorting: readonly string[],
): { field: F; direction: 'asc' | 'desc' }[] {
  return sorting.map((entry) =>
    entry.startsWith('-')
      ? { field: entry.slice(1) as F, direction: 'desc' as const }
      : { field: entry as F, direction: 'asc' as const },
  );
}
