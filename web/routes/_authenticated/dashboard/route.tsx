import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link, Outlet } from '@tanstack/react-router';
import { authClient } from '../../../auth/client';
import { MyInvitations } from '../../../organizations/my-invitations';
import { OrganizationSwitcher } from '../../../organizations/switcher';
import { settingsQuery } from '../../../system/queries';
import { VerifyEmailNotice } from './-components/verify-email-notice';

export const Route = createFileRoute('/_authenticated/dashboard')({
  // The pages below read and load the active organization's data.
  beforeLoad: ({ context }) => ({ organizationId: context.session.session.activeOrganizationId ?? null }),
  component: DashboardLayout,
});

function DashboardNavigation() {
  const active = authClient.useActiveOrganization();
  const settings = useQuery(settingsQuery);
  if (!active.data) return null;
  return (
    <nav className="sub-nav" aria-label="Organization">
      <Link to="/dashboard" activeOptions={{ exact: true }}>
        Overview
      </Link>
      <Link to="/dashboard/teams">Teams</Link>
      <Link to="/dashboard/settings">Settings</Link>
      <Link to="/dashboard/access-tokens">Access tokens</Link>
      <Link to="/dashboard/customers">Customers</Link>
      <Link to="/dashboard/benefits">Benefits</Link>
      <Link to="/dashboard/products">Products</Link>
      <Link to="/dashboard/custom-fields">Custom fields</Link>
      <Link to="/dashboard/meters">Meters</Link>
      <Link to="/dashboard/webhooks">Webhooks</Link>
      <Link to="/dashboard/discounts">Discounts</Link>
      <Link to="/dashboard/checkout-links">Checkout links</Link>
      <Link to="/dashboard/checkouts">Checkouts</Link>
      <Link to="/dashboard/orders">Orders</Link>
      <Link to="/dashboard/subscriptions">Subscriptions</Link>
      <Link to="/dashboard/refunds">Refunds</Link>
      {/* Test clocks drive time in sandbox mode only; a live server refuses them. */}
      {settings.data?.mode === 'sandbox' ? <Link to="/dashboard/test-clocks">Test clocks</Link> : null}
    </nav>
  );
}

function DashboardLayout() {
  const { user } = Route.useRouteContext().session;
  return (
    <section>
      <h1>Dashboard</h1>
      <p>Signed in as {user.email}</p>
      {user.emailVerified ? null : <VerifyEmailNotice email={user.email} />}
      <MyInvitations emailVerified={user.emailVerified} />
      <OrganizationSwitcher />
      <DashboardNavigation />
      <Outlet />
    </section>
  );
}
