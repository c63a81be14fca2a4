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

/** JSON with object keys sorted at every depth: two bodies that mean the same hash the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
