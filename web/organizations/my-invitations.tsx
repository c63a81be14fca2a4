import { useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { authClient, errorMessage, unwrap } from '../auth/client';
import { Card, ErrorNote, formatDateTime } from '../components';
import { ROLE_LABELS, type OrganizationRole } from './roles';

const myInvitationsQuery = queryOptions({
  queryKey: ['invitations', 'mine'],
  queryFn: () => unwrap(authClient.organization.listUserInvitations()),
});

const roleLabel = (role: string) =>
  role
    .split(',')
    .map((one) => ROLE_LABELS[one.trim() as OrganizationRole] ?? one)
    .join(', ');

/**
 * The invitations waiting for the signed-in user, shown as soon as they sign in (the emailed link
 * is not the only way in). Better Auth lists them only for a verified address, so an unverified
 * user sees the verification notice instead.
 */
export function MyInvitations({ emailVerified }: { emailVerified: boolean }) {
  const queryClient = useQueryClient();
  const invitations = useQuery({ ...myInvitationsQuery, enabled: emailVerified });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // Better Auth keeps an expired invitation `pending`; it can no longer be accepted.
  const open = (invitations.data ?? []).filter((invitation) => new Date(invitation.expiresAt) > new Date());
  if (open.length === 0) return null;

  async function answer(invitationId: string, accept: boolean) {
    setBusy(invitationId);
    const result = accept
      ? await authClient.organization.acceptInvitation({ invitationId })
      : await authClient.organization.rejectInvitation({ invitationId });
    setBusy(null);
    setError(errorMessage(result.error));
    if (result.error) return;
    await queryClient.invalidateQueries({ queryKey: myInvitationsQuery.queryKey });
    // Accepting makes the organization the active one: every page reads it afresh.
    if (accept) await queryClient.invalidateQueries();
  }

  return (
    <Card
      title={open.length === 1 ? 'An invitation for you' : `${open.length} invitations for you`}
      testId="my-invitations"
    >
      <ul className="plain-list">
        {open.map((invitation) => (
          <li key={invitation.id} data-testid="my-invitation" className="wrap">
            <strong>{invitation.organizationName}</strong> invited you as {roleLabel(invitation.role)} (until{' '}
            {formatDateTime(invitation.expiresAt)}).{' '}
            <button
              type="button"
              disabled={busy === invitation.id}
              onClick={() => void answer(invitation.id, true)}
              aria-label={`Join ${invitation.organizationName}`}
            >
              Join
            </button>{' '}
            <button
              type="button"
              className="secondary"
              disabled={busy === invitation.id}
              onClick={() => void answer(invitation.id, false)}
              aria-label={`Decline the invitation to ${invitation.organizationName}`}
            >
              Decline
            </button>
          </li>
        ))}
      </ul>
      <ErrorNote message={error} />
    </Card>
  );
}
