import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { authClient, errorMessage } from '../auth/client';
import { refreshSession, sessionQuery, useSession } from '../auth/session';
import { ErrorNote } from '../components';
import { prefetch } from '../loaders';
import { invitationQuery } from '../organizations/queries';

export const Route = createFileRoute('/invitations/$invitationId')({
  loader: ({ context: { queryClient }, params: { invitationId } }) => {
    // Only the invitee may read it; without a known session the page asks once it has one.
    if (queryClient.getQueryData(sessionQuery.queryKey)) prefetch(queryClient, invitationQuery(invitationId));
  },
  component: InvitationPage,
});

function InvitationPage() {
  const { invitationId } = Route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const invitation = useQuery({ ...invitationQuery(invitationId), enabled: Boolean(session.data) });
  const [error, setError] = useState<string | null>(null);

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
      <ErrorNote message={error ?? invitation.error?.message ?? null} />
      {invitation.data ? (
        <>
          <p>
            {invitation.data.inviterEmail} invited you to join{' '}
            <strong>{invitation.data.organizationName}</strong> as {invitation.data.role}.
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
