import type { EnsureQueryDataOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * For route loaders: fetches a page's query unless it is cached, so the page renders with its data.
 * A failure is not thrown to the router: pages show a failed query where its data would be
 * (ErrorNote), and the query keeps the error for them.
 */
export async function loadQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  queryClient: QueryClient,
  options: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<void> {
  await queryClient.ensureQueryData(options).catch(() => undefined);
}
