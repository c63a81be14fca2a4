// Polar's `grant_type=web` (docs/oauth2.md): an app the operator allowed exchanges a signed-in
// user's web session for a token acting as the user or for an organization they manage; and the
// CORS a browser app needs on the token, revocation, introspection and userinfo endpoints.
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { WebGrantRefused, allowWebGrant } from '../../domain/oauth2/clients.js';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type Json = Record<string, unknown>;
type Registered = { client_id: string; client_secret?: string; registration_access_token: string };

const REDIRECT_URI = 'https://app.example.test/callback';
const BROWSER_APP = 'https://spa.example.test';

describe('/v1/oauth2/token grant_type=web', () => {
  const env = useTestStack({ withWorker: false });
  let baseUrl: string;
  let owner: Awaited<ReturnType<typeof signUpUser>>;
  let member: Awaited<ReturnType<typeof signUpUser>>;
  let organizationId: string;
  let app: Registered;

  const post = async (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  };

  const register = async (overrides: Json = {}) => {
    const response = await fetch(`${baseUrl}/v1/oauth2/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: owner.cookieHeader(), origin: baseUrl },
      body: JSON.stringify({
        client_name: 'Acme Desktop',
        redirect_uris: [REDIRECT_URI],
        scope: 'openid email products:read products:write',
        ...overrides,
      }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Registered;
  };

  const webGrant = (sessionToken: string, extra: Record<string, string> = {}, client = app) =>
    post('/oauth2/token', {
      grant_type: 'web',
      client_id: client.client_id,
      client_secret: client.client_secret!,
      session_token: sessionToken,
      ...extra,
    });

  const tokenCount = () => env.database.db.oAuth2Token.count();

  beforeAll(async () => {
    baseUrl = env.stack.baseUrl;
    owner = await signUpUser(baseUrl);
    member = await signUpUser(baseUrl);
    organizationId = (await createOrganization(env.database.db)).id;
    await addMember(env.database.db, organizationId, owner.user.id, 'owner');
    await addMember(env.database.db, organizationId, member.user.id, 'member');
    app = await register();
    expect(await allowWebGrant(env.database.db, app.client_id)).toEqual({ changed: true });
  });

  it('gives a user token for the session, with the scopes asked and no refresh token', async () => {
    const answer = await webGrant(owner.sessionToken, { scope: 'openid email' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: null,
      scope: 'openid email',
    });
    expect(answer.body.access_token).toMatch(/^tollgate_at_u_/);
    const polar = new Polar({ serverURL: baseUrl, accessToken: answer.body.access_token as string });
    expect(await polar.oauth2.userinfo()).toMatchObject({ sub: owner.user.id, email: owner.user.email });
    // Without `scope`, every scope of the client, as Polar.
    expect((await webGrant(owner.sessionToken)).body.scope).toBe('openid email products:read products:write');
  });

  it('gives an organization token for an organization the user owns; it acts there', async () => {
    const answer = await webGrant(owner.sessionToken, {
      sub_type: 'organization',
      sub: organizationId,
      scope: 'products:read',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toMatch(/^tollgate_at_o_/);
    const introspected = await post('/oauth2/introspect', {
      token: answer.body.access_token as string,
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });
    expect(introspected.body).toMatchObject({ active: true, sub_type: 'organization', sub: organizationId });
    const polar = new Polar({ serverURL: baseUrl, accessToken: answer.body.access_token as string });
    expect((await polar.products.list({})).result.items).toEqual([]);
  });

  it('refuses an expired or signed-out session (invalid_grant), issuing nothing', async () => {
    const expiring = await signUpUser(baseUrl);
    await env.database.db.session.updateMany({
      where: { token: expiring.sessionToken },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const leaving = await signUpUser(baseUrl);
    expect((await webGrant(leaving.sessionToken)).status).toBe(200);
    await leaving.client.signOut();
    const before = await tokenCount();
    for (const sessionToken of [expiring.sessionToken, leaving.sessionToken, 'not-a-session']) {
      expect(await webGrant(sessionToken)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
    expect(await tokenCount()).toBe(before);
  });

  it('refuses an organization the user does not belong to, or only reads (invalid_grant)', async () => {
    const stranger = await createOrganization(env.database.db);
    const foreign = await webGrant(owner.sessionToken, { sub_type: 'organization', sub: stranger.id });
    expect(foreign).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const readOnly = await webGrant(member.sessionToken, { sub_type: 'organization', sub: organizationId });
    expect(readOnly).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The member's own user token is theirs to have.
    expect((await webGrant(member.sessionToken)).status).toBe(200);
  });

  it('refuses a scope the client lacks, a bad subject and missing fields with RFC 6749 bodies', async () => {
    const before = await tokenCount();
    expect((await webGrant(owner.sessionToken, { scope: 'orders:read' })).body.error).toBe('invalid_scope');
    expect((await webGrant(owner.sessionToken, { scope: 'nope:read' })).body.error).toBe('invalid_scope');
    const badSubjects: Record<string, string>[] = [
      { sub_type: 'customer' },
      { sub_type: 'user', sub: owner.user.id },
      { sub_type: 'organization' },
      { sub_type: 'organization', sub: 'not-a-uuid' },
    ];
    for (const extra of badSubjects) {
      expect(await webGrant(owner.sessionToken, extra)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request' },
      });
    }
    expect(await webGrant('')).toMatchObject({
      body: { error: 'invalid_request', error_description: 'session_token is required.' },
    });
    expect(await tokenCount()).toBe(before);
  });

  it('refuses a wrong secret (401) and an app the operator did not allow (unauthorized_client)', async () => {
    const wrongSecret = await webGrant(
      owner.sessionToken,
      {},
      { ...app, client_secret: 'tollgate_cs_wrong' },
    );
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const other = await register();
    expect(await webGrant(owner.sessionToken, {}, other)).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
    const publicApp = await register({ token_endpoint_auth_method: 'none' });
    await expect(allowWebGrant(env.database.db, publicApp.client_id)).rejects.toBeInstanceOf(WebGrantRefused);
    await expect(allowWebGrant(env.database.db, 'tollgate_ci_nobody')).rejects.toBeInstanceOf(
      WebGrantRefused,
    );
    expect(await allowWebGrant(env.database.db, app.client_id)).toEqual({ changed: false });
  });

  it("keeps the operator's grant when the owner replaces the registration (RFC 7592)", async () => {
    const allowed = await register();
    await allowWebGrant(env.database.db, allowed.client_id);
    const replaced = await fetch(`${baseUrl}/v1/oauth2/register/${allowed.client_id}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${allowed.registration_access_token}`,
      },
      body: JSON.stringify({
        client_id: allowed.client_id,
        client_name: 'Acme Desktop 2',
        redirect_uris: [REDIRECT_URI],
        scope: 'openid',
      }),
    });
    expect(await replaced.json()).toMatchObject({
      client_name: 'Acme Desktop 2',
      grant_types: ['authorization_code', 'refresh_token', 'web'],
    });
    expect((await webGrant(owner.sessionToken, {}, allowed)).body.scope).toBe('openid');
  });

  describe('CORS for browser apps', () => {
    it('answers preflights of the token, revocation, introspection and userinfo endpoints from any origin', async () => {
      for (const path of ['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect', '/oauth2/userinfo']) {
        const preflight = await fetch(`${baseUrl}/v1${path}`, {
          method: 'OPTIONS',
          headers: {
            origin: BROWSER_APP,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
        expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
        // Never with the visitor's cookies: nothing here reads the session.
        expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      }
    });

    it('lets the page read answers and refusals alike; other OAuth endpoints stay same-origin', async () => {
      const issued = await webGrant(owner.sessionToken);
      const revoked = await post(
        '/oauth2/revoke',
        {
          token: issued.body.access_token as string,
          client_id: app.client_id,
          client_secret: app.client_secret!,
        },
        { origin: BROWSER_APP },
      );
      expect(revoked.status).toBe(200);
      expect(revoked.headers.get('access-control-allow-origin')).toBe('*');
      const refused = await post(
        '/oauth2/token',
        { grant_type: 'authorization_code', client_id: 'tollgate_ci_nobody' },
        { origin: BROWSER_APP },
      );
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');

      const consent = await fetch(`${baseUrl}/v1/oauth2/consent`, {
        method: 'OPTIONS',
        headers: { origin: BROWSER_APP, 'access-control-request-method': 'POST' },
      });
      expect(consent.headers.get('access-control-allow-origin')).toBeNull();
      const discovery = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`, {
        headers: { origin: BROWSER_APP },
      });
      expect(discovery.headers.get('access-control-allow-origin')).toBe('*');
      expect(((await discovery.json()) as Json).grant_types_supported).toContain('web');
    });
  });
});
