import type { QueryClient } from '@tanstack/react-query';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  Link,
  Outlet,
  useNavigate,
  useRouterState,
} from '@tanstack/react-router';
import { useState } from 'react';
import { authClient, errorMessage, hasRole } from '../auth/client';
import { refreshSession, useSession } from '../auth/session';
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

function ImpersonationBanner() {
  const session = useSession();
  const [error, setError] = useState<string | null>(null);
  if (!session.data?.session.impersonatedBy) return null;
  const { user } = session.data;
  async function stop() {
    const result = await authClient.admin.stopImpersonating();
    if (result.error) return setError(errorMessage(result.error));
    // A full load: every cached query belonged to the impersonated user.
    window.location.assign('/admin/users');
  }
  return (
    <div className="impersonation-banner" role="status" data-testid="impersonation-banner">
      <span>
        You are impersonating {user.name} ({user.email})
      </span>
      <button type="button" onClick={() => void stop()}>
        Stop impersonating
      </button>
      {error ? <span role="alert">{error}</span> : null}
    </div>
  );
}

function AccountNavigation() {
  const session = useSession();
  const { data: settings } = useQuery(settingsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (session.isPending) return null;

  async function signOut() {
    await authClient.signOut();
    await refreshSession(queryClient);
    await navigate({ to: '/sign-in' });
  }

  const mailbox = settings?.dev_mailbox ? <Link to="/dev/mailbox">Mailbox</Link> : null;
  if (!session.data) {
    return (
      <nav className="app-nav" aria-label="Account">
        {mailbox}
        <Link to="/sign-in">Sign in</Link>
        <Link to="/sign-up">Create account</Link>
      </nav>
    );
  }
  return (
    <nav className="app-nav" aria-label="Account">
      <Link to="/dashboard">Dashboard</Link>
      {hasRole(session.data.user.role, 'admin') ? <Link to="/admin/users">Users</Link> : null}
      {mailbox}
      <Link to="/api-reference">API</Link>
      <Link to="/account/security">Security</Link>
      <button type="button" className="link-button" onClick={() => void signOut()}>
        Sign out
      </button>
    </nav>
  );
}

function areaOf(pathname: string): 'checkout' | 'portal' | 'dashboard' | null {
  if (pathname.startsWith('/checkout/')) return 'checkout';
  if (pathname.startsWith('/portal/')) return 'portal';
  if (pathname === '/dashboard' || pathname.startsWith('/dashboard/')) return 'dashboard';
  return null;
}

function RootLayout() {
  // The hosted checkout and the customer portal belong to the seller's buyer, not to a Tollgate
  // user: no app header there (the portal draws the seller's own).
  const area = useRouterState({ select: (state) => areaOf(state.location.pathname) });
  // The dashboard draws its own frame (web/shell/): the navigation and the account in its sidebar,
  // and in its top bar the test mode badge that stands in for the sandbox banner.
  if (area === 'dashboard') {
    return (
      <>
        <ImpersonationBanner />
        <Outlet />
      </>
    );
  }
  if (area === 'portal') {
    return (
      <>
        <SandboxBanner />
        <Outlet />
      </>
    );
  }
  if (area === 'checkout') {
    return (
      <>
        <SandboxBanner />
        <main className="checkout-main-area">
          <Outlet />
        </main>
      </>
    );
  }
  return (
    <>
      <ImpersonationBanner />
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
