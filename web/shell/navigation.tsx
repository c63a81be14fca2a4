import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, type ReactNode } from 'react';
import { settingsQuery } from '../system/queries';

function NavGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <div className="shell-nav-group">
      <h2 id={id} className="shell-nav-heading">
        {title}
      </h2>
      <ul aria-labelledby={id}>{children}</ul>
    </div>
  );
}

/**
 * The dashboard's pages, grouped as sellers look for them. The router marks the link of the open
 * page (`aria-current="page"` and the `active` class); a page below a list (an order) keeps its
 * list's link marked.
 */
export function DashboardNavigation() {
  const settings = useQuery(settingsQuery);
  return (
    <nav className="shell-nav" aria-label="Dashboard">
      <ul>
        <li>
          <Link to="/dashboard" activeOptions={{ exact: true, includeSearch: false }}>
            Overview
          </Link>
        </li>
      </ul>
      <NavGroup title="Sales">
        <li>
          <Link to="/dashboard/orders">Orders</Link>
        </li>
        <li>
          <Link to="/dashboard/subscriptions">Subscriptions</Link>
        </li>
        <li>
          <Link to="/dashboard/checkouts">Checkouts</Link>
        </li>
        <li>
          <Link to="/dashboard/customers">Customers</Link>
        </li>
        <li>
          <Link to="/dashboard/refunds">Refunds</Link>
        </li>
      </NavGroup>
      <NavGroup title="Products">
        <li>
          <Link to="/dashboard/products">Products</Link>
        </li>
        <li>
          <Link to="/dashboard/discounts">Discounts</Link>
        </li>
        <li>
          <Link to="/dashboard/checkout-links">Checkout links</Link>
        </li>
        <li>
          <Link to="/dashboard/benefits">Benefits</Link>
        </li>
        <li>
          <Link to="/dashboard/custom-fields">Custom fields</Link>
        </li>
        <li>
          <Link to="/dashboard/meters">Meters</Link>
        </li>
      </NavGroup>
      <NavGroup title="Developers">
        <li>
          <Link to="/dashboard/webhooks">Webhooks</Link>
        </li>
        <li>
          <Link to="/dashboard/access-tokens">Access tokens</Link>
        </li>
        <li>
          <Link to="/api-reference">API</Link>
        </li>
        {/* Test clocks drive time in sandbox mode only; a live server refuses them. */}
        {settings.data?.mode === 'sandbox' ? (
          <li>
            <Link to="/dashboard/test-clocks">Test clocks</Link>
          </li>
        ) : null}
      </NavGroup>
      <NavGroup title="Settings">
        <li>
          <Link to="/dashboard/settings">Organization</Link>
        </li>
        <li>
          <Link to="/dashboard/members">Members</Link>
        </li>
        <li>
          <Link to="/dashboard/teams">Teams</Link>
        </li>
      </NavGroup>
    </nav>
  );
}
