import { authClient } from '../auth/client';

export function OrganizationSwitcher() {
  const organizations = authClient.useListOrganizations();
  const active = authClient.useActiveOrganization();
  if (!organizations.data?.length) return null;
  return (
    <label className="field">
      <span>Organization</span>
      <select
        aria-label="Active organization"
        value={active.data?.id ?? ''}
        onChange={(event) => void authClient.organization.setActive({ organizationId: event.target.value })}
      >
        {/* After leaving or deleting the active organization none is active until one is chosen. */}
        <option value="" disabled>
          Choose an organization
        </option>
        {organizations.data.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </label>
  );
}
