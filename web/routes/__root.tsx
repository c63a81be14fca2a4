import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet, useNavigate } from '@tanstack/react-router';
import { authClient } from '../auth/client';
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

function AccountNavigation() {
  const session = authClient.useSession();
  const navigate = useNavigate();
  if (session.isPending) return null;
  if (!session.data) {
    return (
      <nav className="app-nav" aria-label="Account">
        <Link to="/sign-in">Sign in</Link>
        <Link to="/sign-up">Create account</Link>
      </nav>
    );
  }
  return (
    <nav className="app-nav" aria-label="Account">
      <Link to="/dashboard">Dashboard</Link>
      <Link to="/account/security">Security</Link>
      <button
        type="button"
        className="link-button"
        onClick={() => void authClient.signOut().then(() => navigate({ to: '/sign-in' }))}
      >
        Sign out
      </button>
    </nav>
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
        <AccountNavigation />
      </header>
      <main className="app-main">
        <Outlet />
      </main>
    </>
  );
}
