import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { refreshSession, useSession } from '../auth/session';
import { ErrorNote } from '../components';

export const Route = createFileRoute('/invitations/$invitationId')({ component: InvitationPage });

type InvitationDetails = { organizationName: string; inviterEmail: string; role: string; email: string };

function InvitationPage() {
  const { invitationId } = Route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const [invitation, setInvitation] = useState<InvitationDetails | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!session.data) return;
    void authClient.organization.getInvitation({ query: { id: invitationId } }).then((result) => {
      if (result.error) setError(errorMessage(result.error));
      else setInvitation(result.data);
    });
  }, [invitationId, session.data]);

  if (session.isPending) return <p>Loading…</p>;
  if (!session.data) {
    return (
      <section className="narrow">
        <h1>You have been invited</h1>
        <p>
          <Link to="/sign-in">Sign in</Link> or <Link to="/sign-up">create an account</Link> with the address
          the invitation was sent to, then open this link again.
        </p>
      </section>
    );
  }

  async function answer(accept: boolean) {
    const result = accept
      ? await authClient.organization.acceptInvitation({ invitationId })
      : await authClient.organization.rejectInvitation({ invitationId });
    if (result.error) return setError(errorMessage(result.error));
    // Accepting makes the organization the active one: the dashboard must load with that session.
    if (accept) await refreshSession(queryClient);
    await navigate({ to: '/dashboard' });
  }

  return (
    <section className="narrow">
      <h1>Invitation</h1>
      <ErrorNote message={error} />
      {invitation ? (
        <>
          <p>
            {invitation.inviterEmail} invited you to join <strong>{invitation.organizationName}</strong> as{' '}
            {invitation.role}.
          </p>
          <div className="button-row">
            <button type="button" onClick={() => void answer(true)}>
              Accept invitation
            </button>
            <button type="button" className="secondary" onClick={() => void answer(false)}>
              Decline
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}
