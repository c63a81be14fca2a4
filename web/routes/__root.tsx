import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { settingsQuery } from '../system/queries';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  notFoundComponent: () => (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link to="/">Back to the start page</Link>
      </p>
    </section>
  ),
});

function SandboxBanner() {
  const { data: settings } = useQuery(settingsQuery);
  if (settings?.mode !== 'sandbox') return null;
  return (
    <div className="sandbox-banner" role="status" data-testid="sandbox-banner">
      Sandbox mode: payments use test cards and no real money moves.
    </div>
  );
}

function RootLayout() {
  return (
    <>
      <SandboxBanner />
      <header className="app-header">
        <Link to="/" className="brand">
          Tollgate
        </Link>
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </>
  );
}
