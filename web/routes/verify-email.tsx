import { createFileRoute, Link } from '@tanstack/react-router';
import { z } from 'zod';
import { useSession } from '../auth/session';

const searchSchema = z.object({ error: z.string().optional().catch(undefined) });

export const Route = createFileRoute('/verify-email')({
  validateSearch: searchSchema,
  component: VerifyEmailPage,
});

// The codes Better Auth's /verify-email redirects with (`callbackURL?error=<code>`).
const ERROR_MESSAGES: Partial<Record<string, string>> = {
  INVALID_TOKEN: 'This verification link is invalid.',
  TOKEN_EXPIRED: 'This verification link has expired.',
  USER_NOT_FOUND: 'The account this link was sent for no longer exists.',
  INVALID_USER: 'This link belongs to another account than the one signed in.',
};

function VerifyEmailPage() {
  const { error } = Route.useSearch();
  const session = useSession();

  if (error) {
    return (
      <section className="narrow">
        <h1>Email verification</h1>
        <p className="error-note" role="alert">
          {ERROR_MESSAGES[error] ?? 'The email address could not be verified.'} (error code: {error})
        </p>
        <p>
          {session.data ? (
            <Link to="/dashboard">Send a new link from the dashboard</Link>
          ) : (
            <Link to="/sign-in">Sign in to send a new link</Link>
          )}
        </p>
      </section>
    );
  }
  // Better Auth comes back here without an error only once the address is verified.
  return (
    <section className="narrow">
      <h1>Email verification</h1>
      <p role="status" data-testid="verify-email-result">
        {session.data
          ? `Your email address ${session.data.user.email} is verified.`
          : 'Your email address is verified.'}
      </p>
      <p>
        {session.data ? <Link to="/dashboard">Go to the dashboard</Link> : <Link to="/sign-in">Sign in</Link>}
      </p>
    </section>
  );
}
