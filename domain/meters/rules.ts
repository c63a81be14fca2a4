import type { Filter, FilterClause } from './schemas.js';

/** Nesting beyond this is refused: a filter is evaluated on every ingested event. */
export const MAX_FILTER_DEPTH = 5;

export type FilterIssue = { path: (string | number)[]; message: string };

const isClause = (entry: FilterClause | Filter): entry is FilterClause => 'operator' in entry;

/**
 * What the schema cannot say about a filter (spec §4 operators): `like` and `not_like` match text,
 * so they take a string; nesting is bounded. Paths are relative to the filter.
 */
export function filterIssues(filter: Filter, depth = 1, path: (string | number)[] = []): FilterIssue[] {
  if (depth > MAX_FILTER_DEPTH) {
    return [{ path, message: `Filters may nest at most ${MAX_FILTER_DEPTH} levels deep.` }];
  }
  return filter.clauses.flatMap((entry, index) => {
    const at = [...path, 'clauses', index];
    if (!isClause(entry)) return filterIssues(entry, depth + 1, at);
    if ((entry.operator === 'like' || entry.operator === 'not_like') && typeof entry.value !== 'string') {
      return [{ path: [...at, 'value'], message: `The ${entry.operator} operator takes a string value.` }];
    }
    return [];
  });
}
