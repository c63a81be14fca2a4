import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, Outlet, redirect, useLocation, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { z } from 'zod';
import type { Organization } from '../../domain/organizations/schemas';
import { ApiError } from '../api';
import { DatesIn } from '../components';
import { portalCall } from '../portal/api';
import { portalCustomerKey, portalOrganizationQuery, portalSessionQuery } from '../portal/queries';
import { endPortalSession, savePortalToken, usePortalToken, useSessionEnd } from '../portal/session';
import { PortalSignIn } from '../portal/sign-in';
import { prefetch } from '../loaders';

/** `customer_portal_url` (a customer session, or a checkout's confirmation) carries the token. */
const searchSchema = z.object({ customer_session_token: z.string().min(1).optional().catch(undefined) });

export const Route = createFileRoute('/portal/$organizationSlug')({
  validateSearch: searchSchema,
  beforeLoad: ({ params, search, location, context }) => {
    const token = search.customer_session_token;
    if (!token) return;
    // A new sign-in: nothing of a buyer signed in before may show, and the token leaves the
    // address bar (and so the history, bookmarks and Referer) before anything renders.
    context.queryClient.removeQueries({ queryKey: portalCustomerKey(params.organizationSlug) });
    savePortalToken(params.organizationSlug, token);
    throw redirect({ href: location.pathname, replace: true });
  },
  loader: ({ context: { queryClient }, params }) => {
    prefetch(queryClient, portalOrganizationQuery(params.organizationSlug));
  },
  component: PortalLayout,
});

const SECTIONS = [
  { to: '/portal/$organizationSlug', label: 'Overview', exact: true },
  { to: '/portal/$organizationSlug/orders', label: 'Orders' },
  { to: '/portal/$organizationSlug/license-keys', label: 'License keys' },
  { to: '/portal/$organizationSlug/downloads', label: 'Downloads' },
  { to: '/portal/$organizationSlug/usage', label: 'Usage' },
  { to: '/portal/$organizationSlug/benefits', label: 'Benefits' },
  { to: '/portal/$organizationSlug/billing', label: 'Billing' },
] as const;

function SellerAvatar({ organization }: { organization: Organization }) {
  if (organization.avatar_url) {
    return <img className="portal-avatar" src={organization.avatar_url} alt="" width={40} height={40} />;
  }
  return (
    <span className="portal-avatar portal-avatar-initial" aria-hidden="true">
      {organization.name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

function PortalUnavailable({ error }: { error: Error }) {
  const isMissing = error instanceof ApiError && error.status === 404;
  return (
    <main className="portal-main-area">
      <section className="checkout-message" role="alert">
        <h1>{isMissing ? 'This portal does not exist' : 'This page cannot be shown'}</h1>
        <p>
          {isMissing
            ? 'Check the link you followed, or ask the seller for a new one.'
            : 'Reload the page in a moment. If it keeps failing, contact the seller.'}
        </p>
      </section>
    </main>
  );
}

/**
 * Fetches the code of every portal page once the buyer is signed in: a page with a loader shows
 * only once its chunk has arrived, and the portal's navigation should switch at once.
 */
function usePortalChunks(isSignedIn: boolean) {
  const router = useRouter();
  useEffect(() => {
    if (!isSignedIn) return;
    for (const route of Object.values(router.routesById)) {
      if (route.id.startsWith(`${Route.id}/`)) void router.loadRouteChunk(route)?.catch(() => undefined);
    }
  }, [router, isSignedIn]);
}

function PortalLayout() {
  const { organizationSlug: slug } = Route.useParams();
  const queryClient = useQueryClient();
  const organization = useQuery(portalOrganizationQuery(slug));
  const token = usePortalToken(slug);
  const ended = useSessionEnd(slug);
  // An email change's link and a seat invitation are opened wherever the inbox is, often without
  // a session there.
  const isEmailLink = useLocation({
    select: (location) => location.pathname.endsWith('/verify-email') || location.pathname.endsWith('/claim'),
  });
  const session = useQuery({ ...portalSessionQuery(slug), enabled: token !== null });
  usePortalChunks(token !== null);
  const sellerName = organization.data?.organization.name;

  useEffect(() => {
    if (sellerName) document.title = `${sellerName} · Your purchases`;
  }, [sellerName]);

  if (organization.error) return <PortalUnavailable error={organization.error} />;
  if (!organization.data) {
    return (
      <main className="portal-main-area">
        <p role="status">Loading…</p>
      </main>
    );
  }
  const seller = organization.data.organization;

  function signOut() {
    // The server ends the session too; the page does not wait for it.
    void portalCall(slug, 'DELETE', '/customer-session', z.unknown()).catch(() => undefined);
    endPortalSession(slug, 'signed-out');
    queryClient.removeQueries({ queryKey: portalCustomerKey(slug) });
  }

  return (
    <div className="portal">
      <header className="portal-header" data-testid="portal-header">
        <div className="portal-seller">
          <SellerAvatar organization={seller} />
          <span className="portal-seller-name" data-testid="seller-name">
            {seller.name}
          </span>
        </div>
        {token && session.data?.return_url ? (
          // The seller's app named it when it signed the buyer in (an http or https URL).
          <a className="portal-return" href={session.data.return_url}>
            ← Back to {seller.name}
          </a>
        ) : null}
        {token ? (
          <button type="button" className="secondary" onClick={signOut}>
            Sign out
          </button>
        ) : null}
      </header>
      {isEmailLink ? (
        // Apart from the signed-in layout: confirming signs the buyer in, and the page stays put.
        <main className="portal-main-area">
          <Outlet />
        </main>
      ) : token ? (
        <div className="portal-body">
          <nav className="portal-nav" aria-label="Portal">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.to}>
                  <Link
                    to={section.to}
                    params={{ organizationSlug: slug }}
                    activeOptions={{ exact: 'exact' in section }}
                    activeProps={{ className: 'active', 'aria-current': 'page' }}
                  >
                    {section.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <main className="portal-main" id="portal-main">
            {/* The buyer reads the seller's days, as in the seller's emails and invoices. */}
            <DatesIn timeZone={seller.time_zone}>
              <Outlet />
            </DatesIn>
          </main>
        </div>
      ) : (
        <main className="portal-main-area">
          <PortalSignIn slug={slug} sellerName={seller.name} ended={ended} />
        </main>
      )}
    </div>
  );
}
