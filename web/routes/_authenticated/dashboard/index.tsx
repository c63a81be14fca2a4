import { createFileRoute } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { authClient, errorMessage } from '../../../auth/client';
import { Card, ErrorNote, Field, formValues } from '../../../components';
import { InvitationsCard } from '../../../organizations/invitations';
import { MembersCard } from '../../../organizations/members';
import { canManage } from '../../../organizations/roles';

export const Route = createFileRoute('/_authenticated/dashboard/')({ component: MembersPage });

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

function MembersPage() {
  const userId = Route.useRouteContext().session.user.id;
  const active = authClient.useActiveOrganization();
  const organization = active.data;
  const me = organization?.members.find((member) => member.userId === userId);
  return (
    <>
      {organization ? (
        <>
          <MembersCard organization={organization} currentUserId={userId} />
          {canManage(me?.role) ? <InvitationsCard organization={organization} /> : null}
        </>
      ) : (
        <p data-testid="no-active-organization">Create or choose an organization to see its members.</p>
      )}
      <CreateOrganization />
    </>
  );
}
