import { useQuery } from '@tanstack/react-query';
import { userSessionsQuery } from '../../../../admin/queries';
import { authClient, errorMessage } from '../../../../auth/client';
import { Card, ConfirmButton, ErrorNote, formatDateTime } from '../../../../components';
import type { ManagedUser, OnResult } from './managed-user';

export function SessionsCard({ user, onResult }: { user: ManagedUser; onResult: OnResult }) {
  const sessions = useQuery(userSessionsQuery(user.id));
  async function revoke(sessionToken: string) {
    const result = await authClient.admin.revokeUserSession({ sessionToken });
    await onResult(errorMessage(result.error));
  }
  async function revokeAll() {
    const result = await authClient.admin.revokeUserSessions({ userId: user.id });
    await onResult(errorMessage(result.error));
  }
  const list = sessions.data?.sessions ?? [];
  return (
    <Card title="Sessions">
      <ErrorNote message={sessions.error?.message ?? null} />
      {sessions.isSuccess && list.length === 0 ? <p>No active sessions.</p> : null}
      {list.length > 0 ? (
        <>
          <table>
            <thead>
              <tr>
                <th>Started</th>
                <th>Expires</th>
                <th>Address</th>
                <th>Browser</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((session, index) => (
                <tr key={session.id} data-testid="session-row">
                  <td>{formatDateTime(session.createdAt)}</td>
                  <td>{formatDateTime(session.expiresAt)}</td>
                  <td>{session.ipAddress || '—'}</td>
                  <td>{session.userAgent || '—'}</td>
                  <td>
                    <ConfirmButton
                      label={`Revoke session ${index + 1}`}
                      text="Revoke"
                      question="End this session?"
                      onConfirm={() => revoke(session.token)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="button-row">
            <ConfirmButton
              label="Revoke all sessions"
              question={`Sign ${user.email} out everywhere?`}
              onConfirm={revokeAll}
            />
          </div>
        </>
      ) : null}
    </Card>
  );
}
