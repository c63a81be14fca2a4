import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { authClient, hasRole } from '../auth/client';
import { refreshSession } from '../auth/session';
import { Truncated } from '../components';
import { settingsQuery } from '../system/queries';

/**
 * Who is signed in and what concerns their account, at the foot of the sidebar: the dashboard's
 * pages are in the navigation above it, so the root header's links are not repeated here.
 */
export function AccountMenu({ email, role }: { email: string; role: string | null | undefined }) {
  const { data: settings } = useQuery(settingsQuery);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  async function signOut() {
    await authClient.signOut();
    await refreshSession(queryClient);
    await navigate({ to: '/sign-in' });
  }

  return (
    <section className="shell-account" aria-label="Account">
      <p className="shell-signed-in">
        Signed in as <Truncated text={email} />
      </p>
      <ul>
        <li>
          <Link to="/account/security">Account security</Link>
        </li>
        {hasRole(role, 'admin') ? (
          <>
            <li>
              <Link to="/admin/users">Users</Link>
            </li>
            <li>
              <Link to="/admin/stuck-work">Stuck work</Link>
            </li>
          </>
        ) : null}
        {settings?.dev_mailbox ? (
          <li>
            <Link to="/dev/mailbox">Mailbox</Link>
          </li>
        ) : null}
        <li>
          <button type="button" className="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </li>
      </ul>
    </section>
  );
}
