import { Link } from '@tanstack/react-router';
import { authClient } from '../auth/client';

/**
 * The active organization, at the top of the dashboard's sidebar: a native select (keyboard and
 * screen readers know it) that cuts a long name with an ellipsis and shows it whole as its tooltip,
 * and the way to a new organization (its form is on the Members page).
 */
export function OrganizationSwitcher() {
  const organizations = authClient.useListOrganizations();
  const active = authClient.useActiveOrganization();
  const list = organizations.data ?? [];
  return (
    <div className="org-switcher">
      {list.length > 0 ? (
        <label className="org-switcher-field">
          <span className="org-switcher-label">Organization</span>
          <select
            aria-label="Active organization"
            title={active.data?.name}
            value={active.data?.id ?? ''}
            onChange={(event) =>
              void authClient.organization.setActive({ organizationId: event.target.value })
            }
          >
            {/* After leaving or deleting the active organization none is active until one is chosen. */}
            <option value="" disabled>
              Choose an organization
            </option>
            {list.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <Link to="/dashboard/members" hash="new-organization" className="org-switcher-new">
        New organization
      </Link>
    </div>
  );
}
