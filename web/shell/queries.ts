import { queryOptions } from '@tanstack/react-query';
import { searchResultsSchema } from '../../domain/search/schemas';
import { getJson } from '../api';

/** The global search's answer for one organization and one (trimmed) text. */
export const searchQuery = (organizationId: string, text: string) =>
  queryOptions({
    queryKey: ['search', organizationId, text],
    queryFn: () =>
      getJson(
        `/v1/search/?${new URLSearchParams({ query: text, organization_id: organizationId })}`,
        searchResultsSchema,
      ),
    // A result opens a page; coming back to the same text a moment later needs no new request.
    staleTime: 10_000,
  });
