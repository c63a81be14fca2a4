import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * For route loaders: starts fetching a page's query (unless it is cached and fresh) without
 * waiting for it. Navigation stays as immediate as it was before pages had loaders, and each page
 * keeps showing its own loading and error states; its useQuery, with the same options, joins the
 * fetch under way. When a link is hovered, the route preloads and the data is often there first.
 */
export function prefetch<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): void {
  void queryClient.prefetchQuery(options);
}
