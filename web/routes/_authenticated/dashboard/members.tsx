import { createFileRoute, useLocation } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { authClient } from '../../../auth/client';
import { InvitationsCard } from '../../../organizations/invitations';
import { MembersCard } from '../../../organizations/members';
import { canManage } from '../../../organizations/roles';
import { CreateOrganizationForm } from './-components/create-organization-form';
import { PageTitle } from '../../../shell/page-title';

export const Route = createFileRoute('/_authenticated/dashboard/members')({
  component: MembersPage,
});

function MembersPage() {
  return (
    <>
      <PageTitle title="Members" />
      <MembersPageContent />
    </>
  );
}

/** The active organization's members and invitations, and a new organization of one's own. */
function MembersPageContent() {
  const { session } = Route.useRouteContext();
  const userId = session.user.id;
  const active = authClient.useActiveOrganization();
  const organization = active.data;
  const me = organization?.members.find((member) => member.userId === userId);
  const hash = useLocation({ select: (location) => location.hash });
  const newOrganization = useRef<HTMLDivElement>(null);

  // The switcher's "New organization" lands here: the form takes the focus, as a dialog would.
  useEffect(() => {
    if (hash !== 'new-organization') return;
    newOrganization.current?.scrollIntoView({ block: 'nearest' });
    newOrganization.current?.querySelector('input')?.focus();
  }, [hash]);

  return (
    <div className="members-page">
      {organization ? (
        <>
          <MembersCard organization={organization} currentUserId={userId} />
          {canManage(me?.role) ? <InvitationsCard organization={organization} /> : null}
        </>
      ) : (
        <p data-testid="no-active-organization">Create or choose an organization to see its members.</p>
      )}
      <div id="new-organization" ref={newOrganization}>
        <CreateOrganizationForm />
      </div>
    </div>
  );
}
