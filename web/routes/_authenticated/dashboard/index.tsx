import { createFileRoute } from '@tanstack/react-router';
import { authClient } from '../../../auth/client';
import { InvitationsCard } from '../../../organizations/invitations';
import { MembersCard } from '../../../organizations/members';
import { canManage } from '../../../organizations/roles';
import { CreateOrganizationForm } from './-components/create-organization-form';

export const Route = createFileRoute('/_authenticated/dashboard/')({ component: MembersPage });

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
      <CreateOrganizationForm />
    </>
  );
}
