import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Navigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { Card, ErrorNote, Field, formValues } from '../components';

export const Route = createFileRoute('/dashboard')({ component: DashboardPage });

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}

function CreateOrganization() {
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { name = '', slug } = formValues(form);
    const result = await authClient.organization.create({ name, slug: slug || slugify(name) });
    if (result.error) return setError(errorMessage(result.error));
    setError(null);
    form.reset();
  }
  return (
    <Card title="Create an organization">
      <form onSubmit={onSubmit} className="inline-form">
        <Field label="Organization name" name="name" />
        <Field label="Slug (optional)" name="slug" required={false} />
        <button type="submit">Create organization</button>
      </form>
      <ErrorNote message={error} />
    </Card>
  );
}

function OrganizationSwitcher() {
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
        {organizations.data.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function Teams({ organizationId }: { organizationId: string }) {
  const teams = useQuery({
    queryKey: ['organizations', organizationId, 'teams'],
    queryFn: async () => {
      const result = await authClient.organization.listTeams({ query: { organizationId } });
      if (result.error) throw new Error(errorMessage(result.error) ?? 'Could not load teams');
      return result.data;
    },
  });
  return (
    <Card title="Teams">
      <ErrorNote message={teams.error?.message ?? null} />
      <ul className="plain-list">
        {(teams.data ?? []).map((team) => (
          <li key={team.id}>{team.name}</li>
        ))}
      </ul>
    </Card>
  );
}

function Members() {
  const active = authClient.useActiveOrganization();
  const [error, setError] = useState<string | null>(null);
  const organization = active.data;
  if (!organization) return <p>Create or choose an organization to see its members.</p>;

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { email = '', role = 'member' } = formValues(form);
    const result = await authClient.organization.inviteMember({
      email,
      role: role as 'member' | 'admin' | 'owner',
      organizationId: organization?.id,
    });
    if (result.error) return setError(errorMessage(result.error));
    setError(null);
    form.reset();
  }

  const pending = organization.invitations.filter((invitation) => invitation.status === 'pending');
  return (
    <>
      <Card title="Members">
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {organization.members.map((member) => (
              <tr key={member.id} data-testid="member-row">
                <td>{member.user.name}</td>
                <td>{member.user.email}</td>
                <td>{member.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Invitations">
        <form onSubmit={invite} className="inline-form">
          <Field label="Email to invite" name="email" type="email" />
          <label className="field">
            <span>Role</span>
            <select name="role" aria-label="Role" defaultValue="member">
              <option value="member">Member</option>
              <option value="admin">Admin</option>
              <option value="owner">Owner</option>
            </select>
          </label>
          <button type="submit">Send invitation</button>
        </form>
        <ErrorNote message={error} />
        <ul className="plain-list">
          {pending.map((invitation) => (
            <li key={invitation.id} data-testid="pending-invitation">
              {invitation.email} ({invitation.role}) — expires{' '}
              {new Date(invitation.expiresAt).toLocaleString()}{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void authClient.organization.cancelInvitation({ invitationId: invitation.id })}
              >
                Cancel
              </button>
            </li>
          ))}
        </ul>
      </Card>
      <Teams organizationId={organization.id} />
    </>
  );
}

function DashboardPage() {
  const session = authClient.useSession();
  // After sign-in the session store may still be refreshing: wait rather than bounce to sign-in.
  if (session.isPending || session.isRefetching) return <p>Loading…</p>;
  if (!session.data) return <Navigate to="/sign-in" />;
  return (
    <section>
      <h1>Dashboard</h1>
      <p>Signed in as {session.data.user.email}</p>
      <OrganizationSwitcher />
      <Members />
      <CreateOrganization />
    </section>
  );
}
