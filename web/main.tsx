import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { watchSession } from './auth/session';
import { routeTree } from './routeTree.gen';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A second of freshness: a route's loader fetches its page's queries just before the page
    // mounts, and the page's useQuery would otherwise fetch them all again on mount.
    queries: { retry: 1, staleTime: 1_000 },
  },
});
const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // TanStack Query decides what is fresh: the router calls loaders every time, also after a preload.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: () => <p>Loading…</p>,
});
watchSession(queryClient, router);

declare module '@tanstack/react-router' {
  // Declaration merging, which only an interface can do, registers the router's types.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Register {
    router: typeof router;
  }
}

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
createRoot(rootElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
