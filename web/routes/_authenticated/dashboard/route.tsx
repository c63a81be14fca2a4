import { createFileRoute, Link, Outlet } from '@tanstack/react-router';
import { useState } from 'react';
import { authClient, errorMessage } from '../../../auth/client';
import { ErrorNote, SuccessNote } from '../../../components';
import { OrganizationSwitcher } from '../../../organizations/switcher';

export const Route = createFileRoute('/_authenticated/dashboard')({
  // The pages below read and load the active organization's data.
  beforeLoad: ({ context }) => ({ organizationId: context.session.session.activeOrganizationId ?? null }),
  component: DashboardLayout,
});

function VerifyEmailNotice({ email }: { email: string }) {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function resend() {
    const result = await authClient.sendVerificationEmail({ email, callbackURL: '/verify-email' });
    setError(errorMessage(result.error));
    setSent(!result.error);
  }
  return (
    <div className="notice" data-testid="verify-email-notice">
      <p>Your email address {email} is not verified yet.</p>
      <button type="button" className="secondary" onClick={() => void resend()}>
        Resend verification email
      </button>
      <SuccessNote message={sent ? `We sent a new verification link to ${email}.` : null} />
      <ErrorNote message={error} />
    </div>
  );
}

function DashboardNavigation() {
  const active = authClient.useActiveOrganization();
  if (!active.data) return null;
  return (
    <nav className="sub-nav" aria-label="Organization">
      <Link to="/dashboard" activeOptions={{ exact: true }}>
        Members
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
      <Link to="/dashboard/refunds">Refunds</Link>
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
      <OrganizationSwitcher />
      <DashboardNavigation />
      <Outlet />
    </section>
  );
}
