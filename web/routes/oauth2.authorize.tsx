import { useQuery } from '@tanstack/react-query';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import {
  authorizeQuerySchema,
  authorizeResponseSchema,
  consentResponseSchema,
  type AuthorizeResponse,
} from '../../domain/oauth2/schemas';
import { sessionQuery, useSession } from '../auth/session';
import { ErrorNote } from '../components';

// The authorization endpoint of the OAuth server (docs/oauth2.md): an app sends the user here; the
// page reads what is asked (GET /v1/oauth2/authorize) and sends the user's answer
// (POST /v1/oauth2/consent), then the browser goes to the app's redirect URI.

const searchSchema = z.object(
  Object.fromEntries(
    Object.keys(authorizeQuerySchema.shape).map((name) => [name, z.string().optional().catch(undefined)]),
  ),
);
type AuthorizeSearch = Record<string, string | undefined>;

/**
 * The app's request as it sent it, from the address bar: the router's own reading re-writes
 * values (`state=20261202` becomes a number, `1.50` becomes `1.5`), and the app compares `state`
 * to the text it sent.
 */
function requestAsSent(): AuthorizeSearch {
  const sent = new URLSearchParams(window.location.search);
  return searchSchema.parse(
    Object.fromEntries(
      Object.keys(authorizeQuerySchema.shape).map((name) => [name, sent.get(name) ?? undefined]),
    ),
  );
}

export const Route = createFileRoute('/oauth2/authorize')({
  // Someone signed out signs in (or up) first and comes back to this same request.
  beforeLoad: async ({ context, location }) => {
    if (await context.queryClient.ensureQueryData(sessionQuery)) return;
    const asSent = window.location.pathname === location.pathname;
    const returnTo = asSent ? `${window.location.pathname}${window.location.search}` : location.href;
    throw redirect({ to: '/sign-in', search: { return_to: returnTo } });
  },
  component: AuthorizePage,
});

const oauthErrorSchema = z.object({
  error: z.string(),
  error_description: z.string().optional(),
  redirect_to: z.string().optional(),
});

class OAuthPageError extends Error {
  constructor(
    message: string,
    readonly redirectTo: string | undefined,
  ) {
    super(message);
  }
}

const definedParameters = (search: AuthorizeSearch) =>
  Object.fromEntries(
    Object.entries(search).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

async function readOAuthAnswer<S extends z.ZodType>(response: Response, schema: S): Promise<z.output<S>> {
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return schema.parse(body);
  const failure = oauthErrorSchema.safeParse(body);
  if (failure.success) {
    throw new OAuthPageError(failure.data.error_description ?? failure.data.error, failure.data.redirect_to);
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  throw new OAuthPageError(typeof detail === 'string' ? detail : response.statusText, undefined);
}

async function fetchAuthorization(search: AuthorizeSearch): Promise<AuthorizeResponse> {
  const query = new URLSearchParams(definedParameters(search)).toString();
  const response = await fetch(`/v1/oauth2/authorize?${query}`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  return readOAuthAnswer(response, authorizeResponseSchema);
}

function AuthorizePage() {
  const [search] = useState(requestAsSent);
  const session = useSession();
  const authorization = useQuery({
    queryKey: ['oauth2-authorize', search],
    queryFn: () => fetchAuthorization(search),
    enabled: Boolean(session.data),
    retry: false,
    staleTime: Infinity,
  });
  const failure = authorization.error;
  // Once the app's redirect URI is known good, an error goes back to the app (RFC 6749 §4.1.2.1).
  const redirectTo = failure instanceof OAuthPageError ? failure.redirectTo : undefined;
  if (redirectTo) window.location.assign(redirectTo);

  // A session that ends here sends the page to sign-in again (watchSession runs the guard).
  if (!session.data) return <p>Loading…</p>;
  if (failure) {
    return (
      <section className="narrow" aria-labelledby="authorize-title">
        <h1 id="authorize-title">This app cannot be allowed</h1>
        {redirectTo ? <p>Returning to the app…</p> : <ErrorNote message={failure.message} />}
      </section>
    );
  }
  if (!authorization.data) return <p>Loading…</p>;
  return <Consent authorization={authorization.data} search={search} email={session.data.user.email} />;
}

function Consent({
  authorization,
  search,
  email,
}: {
  authorization: AuthorizeResponse;
  search: AuthorizeSearch;
  email: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const appName = authorization.client.client_name ?? 'An app';
  const forOrganization = authorization.sub_type === 'organization';
  const [organizationId, setOrganizationId] = useState(
    authorization.organizations.length === 1 ? authorization.organizations[0]!.id : '',
  );
  const canAllow = !forOrganization || authorization.organizations.length > 0;

  async function answer(action: 'allow' | 'deny') {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('/v1/oauth2/consent', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          ...definedParameters(search),
          action,
          ...(forOrganization && action === 'allow' ? { organization_id: organizationId || null } : {}),
        }),
      });
      const { redirect_to } = await readOAuthAnswer(response, consentResponseSchema);
      window.location.assign(redirect_to);
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : 'The answer could not be sent.');
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (forOrganization && !organizationId) return setError('Choose the organization the app will act for.');
    void answer('allow');
  }

  return (
    <section className="narrow consent" aria-labelledby="authorize-title">
      <h1 id="authorize-title">Allow {appName}?</h1>
      <p>
        <strong>{appName}</strong>
        {authorization.client.client_uri ? (
          <>
            {' '}
            (<a href={authorization.client.client_uri}>{new URL(authorization.client.client_uri).host}</a>)
          </>
        ) : null}{' '}
        {forOrganization
          ? 'asks to act for one of your organizations. It will be able to:'
          : `asks to act as you (${email}) in your organizations, with your role in each. It will be able to:`}
      </p>
      <ul aria-label="What the app will be able to do" data-testid="consent-scopes">
        {authorization.scopes.map((scope) => (
          <li key={scope}>{authorization.scope_display_names[scope] ?? scope}</li>
        ))}
      </ul>
      <form onSubmit={onSubmit}>
        {forOrganization ? (
          authorization.organizations.length > 0 ? (
            <fieldset>
              <legend>Organization</legend>
              {authorization.organizations.map((organization) => (
                <label key={organization.id} className="radio">
                  <input
                    type="radio"
                    name="organization"
                    value={organization.id}
                    checked={organizationId === organization.id}
                    onChange={() => setOrganizationId(organization.id)}
                  />{' '}
                  {organization.name}
                </label>
              ))}
            </fieldset>
          ) : (
            <p role="note">
              Only an owner or admin of an organization can allow an app to act for it, and you are neither in
              any organization.
            </p>
          )
        ) : null}
        <ErrorNote message={error} />
        <p className="muted">Signed in as {email}.</p>
        <div className="button-row">
          {canAllow ? (
            <button type="submit" disabled={busy}>
              Allow
            </button>
          ) : null}
          <button type="button" className="secondary" disabled={busy} onClick={() => void answer('deny')}>
            Deny
          </button>
        </div>
      </form>
    </section>
  );
}
