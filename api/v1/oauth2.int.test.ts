// The OAuth2 authorization server (docs/oauth2.md): registration, the consent answer, the token
// endpoint with PKCE and refresh rotation, revocation, introspection, userinfo, and an OAuth token
// used on /v1. Through @polar-sh/sdk 0.48.1 where its client can make the call (it cannot send a
// code_verifier, and reads only 200 answers, so registration's 201 and deletion's 204 go raw).
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { Polar } from 'polar-sdk-0481';
import { Oauth2AuthorizeResponseOauth2Authorize$inboundSchema as sdkAuthorizeResponse } from 'polar-sdk-0481/models/operations/oauth2authorize.js';
import { signUpUser } from '../../test/auth-client.js';
import { addMember, createOrganization } from '../../test/factories.js';
import { useTestStack } from '../../test/stack.js';

type Json = Record<string, unknown>;
type Registered = {
  client_id: string;
  client_secret?: string;
  registration_access_token: string;
  redirect_uris: string[];
};

const REDIRECT_URI = 'https://app.example.test/callback';

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('/v1/oauth2', () => {
  const env = useTestStack({ withWorker: false });
  let baseUrl: string;
  let owner: Awaited<ReturnType<typeof signUpUser>>;
  let member: Awaited<ReturnType<typeof signUpUser>>;
  let organizationId: string;
  let app: Registered;

  const send = async (
    method: string,
    path: string,
    options: {
      cookie?: string;
      json?: unknown;
      form?: Record<string, string>;
      bearer?: string;
      basic?: string;
    } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (options.cookie) Object.assign(headers, { cookie: options.cookie, origin: baseUrl });
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    if (options.basic) headers.authorization = `Basic ${options.basic}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetch(`${baseUrl}/v1${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : null) as Json,
    };
  };

  const register = async (cookie: string, overrides: Json = {}) => {
    const answer = await send('POST', '/oauth2/register', {
      cookie,
      json: {
        client_name: 'Acme Analytics',
        redirect_uris: [REDIRECT_URI],
        scope: 'openid email products:read products:write',
        ...overrides,
      },
    });
    expect(answer.status).toBe(201);
    return answer.body as unknown as Registered;
  };

  /** The consent page's two calls: what it shows, then the user's answer; the code from the redirect. */
  const authorizeCode = async (
    client: Registered,
    parameters: Record<string, string> = {},
    consent: Json = { action: 'allow' },
    cookie = owner.cookieHeader(),
  ) => {
    const query = {
      client_id: client.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      state: 'xyz',
      ...parameters,
    };
    const shown = await send('GET', `/oauth2/authorize?${new URLSearchParams(query).toString()}`, { cookie });
    expect(shown.status).toBe(200);
    const answer = await send('POST', '/oauth2/consent', { cookie, json: { ...query, ...consent } });
    expect(answer.status).toBe(200);
    const redirect = new URL(answer.body.redirect_to as string);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('state')).toBe('xyz');
    return { code: redirect.searchParams.get('code')!, shown: shown.body };
  };

  const exchange = (form: Record<string, string>) => send('POST', '/oauth2/token', { form });

  const codeGrant = (client: Registered, code: string, extra: Record<string, string> = {}) =>
    exchange({
      grant_type: 'authorization_code',
      client_id: client.client_id,
      ...(client.client_secret ? { client_secret: client.client_secret } : {}),
      code,
      redirect_uri: REDIRECT_URI,
      ...extra,
    });

  beforeAll(async () => {
    baseUrl = env.stack.baseUrl;
    owner = await signUpUser(baseUrl);
    member = await signUpUser(baseUrl);
    organizationId = (await createOrganization(env.database.db)).id;
    await addMember(env.database.db, organizationId, owner.user.id, 'owner');
    await addMember(env.database.db, organizationId, member.user.id, 'member');
    app = await register(owner.cookieHeader());
  });

  describe('client registration (RFC 7591, 7592)', () => {
    it('registers for a signed-in user only, shows the secrets once and reads back through the SDK', async () => {
      expect(app.client_id).toMatch(/^tollgate_ci_/);
      expect(app.client_secret).toMatch(/^tollgate_cs_/);
      expect(app.registration_access_token).toMatch(/^tollgate_crt_/);
      const anonymous = await send('POST', '/oauth2/register', {
        json: { client_name: 'x', redirect_uris: [REDIRECT_URI] },
      });
      expect(anonymous.status).toBe(401);

      const polar = new Polar({ serverURL: baseUrl, accessToken: app.registration_access_token });
      const read = (await polar.oauth2.clients.get({ clientId: app.client_id })) as Json;
      expect(read).toMatchObject({
        client_id: app.client_id,
        client_name: 'Acme Analytics',
        default_sub_type: 'user',
      });
      expect(read).not.toHaveProperty('client_secret');
      expect(read).not.toHaveProperty('registration_access_token');
      // Stored hashed: the database holds neither secret.
      const row = await env.database.db.oAuth2Client.findUniqueOrThrow({
        where: { clientId: app.client_id },
      });
      expect(JSON.stringify(row)).not.toContain(app.client_secret);
      expect(JSON.stringify(row)).not.toContain(app.registration_access_token);
    });

    it('updates through the SDK with the registration token; another user or token gets 401', async () => {
      const client = await register(owner.cookieHeader());
      const polar = new Polar({ serverURL: baseUrl, accessToken: client.registration_access_token });
      const updated = (await polar.oauth2.clients.update({
        clientId: client.client_id,
        oAuth2ClientConfigurationUpdate: {
          clientId: client.client_id,
          clientName: 'Renamed',
          redirectUris: [REDIRECT_URI, 'http://localhost:3000/cb'],
          scope: 'openid products:read',
        },
      })) as Json;
      expect(updated).toMatchObject({ client_name: 'Renamed', scope: 'openid products:read' });

      const stranger = await signUpUser(baseUrl);
      for (const credentials of [
        { cookie: stranger.cookieHeader() },
        { bearer: app.registration_access_token },
        {},
      ]) {
        const answer = await send('GET', `/oauth2/register/${client.client_id}`, credentials);
        expect(answer.status).toBe(401);
        expect(answer.body.error).toBe('invalid_token');
      }
      // An unknown client answers the same as another's.
      expect(
        (await send('GET', '/oauth2/register/tollgate_ci_nothing', { cookie: owner.cookieHeader() })).status,
      ).toBe(401);
      expect(
        (await send('GET', `/oauth2/register/${client.client_id}`, { cookie: owner.cookieHeader() })).status,
      ).toBe(200);
    });

    it('refuses redirect URIs that are not HTTPS (or this machine) and unknown scopes, creating nothing', async () => {
      const before = await env.database.db.oAuth2Client.count();
      const insecure = await send('POST', '/oauth2/register', {
        cookie: owner.cookieHeader(),
        json: { client_name: 'x', redirect_uris: ['http://evil.example/cb'] },
      });
      expect(insecure).toMatchObject({ status: 400, body: { error: 'invalid_redirect_uri' } });
      const unknown = await send('POST', '/oauth2/register', {
        cookie: owner.cookieHeader(),
        json: { client_name: 'x', redirect_uris: [REDIRECT_URI], scope: 'products:read everything:write' },
      });
      expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
      expect(await env.database.db.oAuth2Client.count()).toBe(before);
    });

    it('deletes (204) and the app’s tokens stop working', async () => {
      const client = await register(owner.cookieHeader());
      const { code } = await authorizeCode(client);
      const tokens = await codeGrant(client, code);
      const deleted = await send('DELETE', `/oauth2/register/${client.client_id}`, {
        bearer: client.registration_access_token,
      });
      expect(deleted.status).toBe(204);
      const listed = await send('GET', '/products/', { bearer: tokens.body.access_token as string });
      expect(listed.status).toBe(401);
    });
  });

  describe('GET /v1/oauth2/authorize', () => {
    it('shows the app, the scopes in words and, for sub_type=organization, only organizations the user manages', async () => {
      const query = new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'products:read',
        sub_type: 'organization',
      });
      const shownToOwner = await send('GET', `/oauth2/authorize?${query.toString()}`, {
        cookie: owner.cookieHeader(),
      });
      expect(shownToOwner.body).toMatchObject({
        client: { client_id: app.client_id, client_name: 'Acme Analytics' },
        sub_type: 'organization',
        scopes: ['products:read'],
        scope_display_names: { 'products:read': 'See products' },
        organizations: [expect.objectContaining({ id: organizationId })],
      });
      const shownToMember = await send('GET', `/oauth2/authorize?${query.toString()}`, {
        cookie: member.cookieHeader(),
      });
      expect(shownToMember.body.organizations).toEqual([]);
      // The SDK's authorize() sends no parameters, so its reading of the answer is checked directly,
      // the anonymous one (sub null) too.
      const anonymous = await send('GET', `/oauth2/authorize?${query.toString()}`);
      for (const answer of [shownToOwner, shownToMember, anonymous]) {
        expect(() => sdkAuthorizeResponse.parse(answer.body)).not.toThrow();
      }
      expect(anonymous.body).toMatchObject({ sub: null, organizations: [] });
    });

    it('shows errors about the client or its redirect URI on the page, never redirecting', async () => {
      const unregistered = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: 'https://evil.example/cb', response_type: 'code' }).toString()}`,
        { cookie: owner.cookieHeader() },
      );
      expect(unregistered).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      expect(unregistered.body).not.toHaveProperty('redirect_to');
      // A prefix of a registered URI is not that URI.
      const prefixed = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: `${REDIRECT_URI}/../evil`, response_type: 'code' }).toString()}`,
      );
      expect(prefixed.body).not.toHaveProperty('redirect_to');
      const unknownClient = await send(
        'GET',
        '/oauth2/authorize?client_id=tollgate_ci_nope&response_type=code',
      );
      expect(unknownClient).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
    });

    it('sends later errors (unknown scope, bad response type) to the registered redirect URI with state', async () => {
      const query = { client_id: app.client_id, redirect_uri: REDIRECT_URI, state: 's1' };
      const scope = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ ...query, response_type: 'code', scope: 'products:read nope:read' }).toString()}`,
      );
      expect(scope).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
      const redirect = new URL(scope.body.redirect_to as string);
      expect(redirect.searchParams.get('error')).toBe('invalid_scope');
      expect(redirect.searchParams.get('state')).toBe('s1');
      const unregistered = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ ...query, response_type: 'code', scope: 'orders:read' }).toString()}`,
      );
      expect(unregistered.body.error).toBe('invalid_scope');
      const token = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ ...query, response_type: 'token' }).toString()}`,
      );
      expect(token.body.error).toBe('unsupported_response_type');
    });

    it('a denial redirects with access_denied; consent needs a signed-in user from the dashboard', async () => {
      const query = {
        client_id: app.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        state: 'd',
      };
      const denied = await send('POST', '/oauth2/consent', {
        cookie: owner.cookieHeader(),
        json: { ...query, action: 'deny' },
      });
      expect(new URL(denied.body.redirect_to as string).searchParams.get('error')).toBe('access_denied');
      const anonymous = await send('POST', '/oauth2/consent', { json: { ...query, action: 'allow' } });
      expect(anonymous.status).toBe(401);
      const crossSite = await fetch(`${baseUrl}/v1/oauth2/consent`, {
        method: 'POST',
        headers: {
          cookie: owner.cookieHeader(),
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ ...query, action: 'allow' }),
      });
      expect(crossSite.status).toBe(403);
    });
  });

  describe('POST /v1/oauth2/token', () => {
    it('exchanges a code through the SDK, refreshes with rotation, introspects, revokes and reads userinfo', async () => {
      const { code } = await authorizeCode(app, { scope: 'openid email products:read' });
      const polar = new Polar({ serverURL: baseUrl });
      const tokens = await polar.oauth2.token({
        grantType: 'authorization_code',
        clientId: app.client_id,
        clientSecret: app.client_secret!,
        code,
        redirectUri: REDIRECT_URI,
      });
      expect(tokens).toMatchObject({
        tokenType: 'Bearer',
        expiresIn: 3600,
        scope: 'openid email products:read',
      });
      expect(tokens.accessToken).toMatch(/^tollgate_at_u_/);

      const introspected = await polar.oauth2.introspect({
        token: tokens.accessToken,
        clientId: app.client_id,
        clientSecret: app.client_secret!,
      });
      expect(introspected).toMatchObject({
        active: true,
        subType: 'user',
        sub: owner.user.id,
        tokenType: 'access_token',
      });

      const info = await new Polar({ serverURL: baseUrl, accessToken: tokens.accessToken }).oauth2.userinfo();
      expect(info).toEqual({ sub: owner.user.id, email: owner.user.email, emailVerified: false });

      const refreshed = await polar.oauth2.token({
        grantType: 'refresh_token',
        clientId: app.client_id,
        clientSecret: app.client_secret!,
        refreshToken: tokens.refreshToken!,
      });
      expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);

      await polar.oauth2.revoke({
        token: refreshed.refreshToken!,
        clientId: app.client_id,
        clientSecret: app.client_secret!,
      });
      const after = await send('POST', '/oauth2/introspect', {
        form: { token: refreshed.accessToken, client_id: app.client_id, client_secret: app.client_secret! },
      });
      expect(after.body).toEqual({ active: false });
    });

    it('a reused refresh token revokes its whole authorization (OAuth 2.1 §4.3.1)', async () => {
      const { code } = await authorizeCode(app);
      const first = await codeGrant(app, code);
      const form = {
        grant_type: 'refresh_token',
        client_id: app.client_id,
        client_secret: app.client_secret!,
      };
      const second = await exchange({ ...form, refresh_token: first.body.refresh_token as string });
      expect(second.status).toBe(200);
      const replay = await exchange({ ...form, refresh_token: first.body.refresh_token as string });
      expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const successor = await exchange({ ...form, refresh_token: second.body.refresh_token as string });
      expect(successor.body.error).toBe('invalid_grant');
      expect((await send('GET', '/products/', { bearer: second.body.access_token as string })).status).toBe(
        401,
      );
    });

    it('a reused code is refused and revokes the tokens it gave', async () => {
      const { code } = await authorizeCode(app);
      const first = await codeGrant(app, code);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const again = await codeGrant(app, code);
      expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await send('GET', '/products/', { bearer: first.body.access_token as string })).status).toBe(
        401,
      );
    });

    it('checks PKCE (S256 and plain); a public client must use it', async () => {
      const publicApp = await register(owner.cookieHeader(), { token_endpoint_auth_method: 'none' });
      expect(publicApp).not.toHaveProperty('client_secret');
      const without = await send(
        'GET',
        `/oauth2/authorize?${new URLSearchParams({ client_id: publicApp.client_id, redirect_uri: REDIRECT_URI, response_type: 'code' }).toString()}`,
      );
      expect(without.body.error).toBe('invalid_request');

      const { verifier, challenge } = pkce();
      const s256 = { code_challenge: challenge, code_challenge_method: 'S256' };
      const wrong = await codeGrant(publicApp, (await authorizeCode(publicApp, s256)).code, {
        code_verifier: pkce().verifier,
      });
      expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const missing = await codeGrant(publicApp, (await authorizeCode(publicApp, s256)).code);
      expect(missing.body.error).toBe('invalid_grant');
      const right = await codeGrant(publicApp, (await authorizeCode(publicApp, s256)).code, {
        code_verifier: verifier,
      });
      expect(right.status).toBe(200);

      const plain = await codeGrant(
        publicApp,
        (await authorizeCode(publicApp, { code_challenge: verifier, code_challenge_method: 'plain' })).code,
        { code_verifier: verifier },
      );
      expect(plain.status).toBe(200);
    });

    it("refuses another client's code, a wrong secret, an expired code and a different redirect URI", async () => {
      const other = await register(owner.cookieHeader());
      const { code } = await authorizeCode(app);
      const foreign = await codeGrant(other, code);
      expect(foreign).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const wrongSecret = await codeGrant({ ...app, client_secret: 'tollgate_cs_wrong' }, code);
      expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      const basic = Buffer.from(`${app.client_id}:nope`).toString('base64');
      const wrongBasic = await send('POST', '/oauth2/token', {
        basic,
        form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      });
      expect(wrongBasic.status).toBe(401);
      expect(wrongBasic.headers.get('www-authenticate')).toContain('Basic');
      const elsewhere = await codeGrant(app, code, { redirect_uri: 'http://localhost:3000/cb' });
      expect(elsewhere.body.error).toBe('invalid_grant');
      // Still unused after the refusals: the right request succeeds, with Basic authentication.
      const right = await send('POST', '/oauth2/token', {
        basic: Buffer.from(`${app.client_id}:${app.client_secret!}`).toString('base64'),
        form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      });
      expect(right.status).toBe(200);

      const stale = await authorizeCode(app);
      await env.database.db.oAuth2AuthorizationCode.updateMany({
        where: { usedAt: null },
        data: { expiresAt: new Date(Date.now() - 1000) },
      });
      expect((await codeGrant(app, stale.code)).body.error).toBe('invalid_grant');
    });

    it("refuses another client's refresh token, missing fields and unknown grants with RFC 6749 bodies", async () => {
      const other = await register(owner.cookieHeader());
      const { code } = await authorizeCode(app);
      const tokens = await codeGrant(app, code);
      const foreign = await exchange({
        grant_type: 'refresh_token',
        client_id: other.client_id,
        client_secret: other.client_secret!,
        refresh_token: tokens.body.refresh_token as string,
      });
      expect(foreign).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect((await exchange({ client_id: app.client_id })).body).toEqual({
        error: 'invalid_request',
        error_description: 'grant_type is required.',
      });
      const password = await exchange({
        grant_type: 'password',
        client_id: app.client_id,
        client_secret: app.client_secret!,
      });
      expect(password.body.error).toBe('unsupported_grant_type');
      // Its refresh token still works for its own client: the refusal changed nothing.
      const own = await exchange({
        grant_type: 'refresh_token',
        client_id: app.client_id,
        client_secret: app.client_secret!,
        refresh_token: tokens.body.refresh_token as string,
      });
      expect(own.status).toBe(200);
    });
  });

  describe('an OAuth token on /v1', () => {
    it('a user-subject token acts with the user’s role and only within its scopes', async () => {
      const { code } = await authorizeCode(app, { scope: 'products:read' });
      const tokens = await codeGrant(app, code);
      const polar = new Polar({ serverURL: baseUrl, accessToken: tokens.body.access_token as string });
      const listed = await polar.products.list({ organizationId });
      expect(listed.result.items).toEqual([]);
      const refused = await send('POST', '/products/', {
        bearer: tokens.body.access_token as string,
        json: {
          organization_id: organizationId,
          name: 'Widget',
          prices: [{ amount_type: 'fixed', price_amount: 1000, price_currency: 'usd' }],
        },
      });
      expect(refused).toMatchObject({ status: 403, body: { error: 'NotPermitted' } });
      // An operation Polar has no scope for is not for OAuth apps at all.
      expect(
        (await send('GET', '/organization-access-tokens/', { bearer: tokens.body.access_token as string }))
          .status,
      ).toBe(403);
    });

    it('an organization-subject token acts for the chosen organization with its write scope', async () => {
      const { code } = await authorizeCode(
        app,
        { scope: 'products:read products:write', sub_type: 'organization' },
        { action: 'allow', organization_id: organizationId },
      );
      const tokens = await codeGrant(app, code);
      expect(tokens.body.access_token).toMatch(/^tollgate_at_o_/);
      const polar = new Polar({ serverURL: baseUrl, accessToken: tokens.body.access_token as string });
      const product = await polar.products.create({
        name: 'Widget',
        prices: [{ amountType: 'fixed', priceAmount: 1000, priceCurrency: 'usd' }],
      });
      expect(product.organizationId).toBe(organizationId);
      const other = await createOrganization(env.database.db);
      const foreign = await send('GET', `/products/?organization_id=${other.id}`, {
        bearer: tokens.body.access_token as string,
      });
      expect(foreign.body).toMatchObject({ items: [] });
    });

    it('a read-only member cannot grant an organization token, nor one for an organization not theirs', async () => {
      const query = {
        client_id: app.client_id,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        sub_type: 'organization',
      };
      for (const cookie of [member.cookieHeader()]) {
        const answer = await send('POST', '/oauth2/consent', {
          cookie,
          json: { ...query, action: 'allow', organization_id: organizationId },
        });
        expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      }
      expect(await env.database.db.oAuth2AuthorizationCode.count({ where: { userId: member.user.id } })).toBe(
        0,
      );
    });
  });

  it('serves RFC 8414 discovery', async () => {
    const response = await fetch(`${baseUrl}/.well-known/oauth-authorization-server`);
    expect(await response.json()).toMatchObject({
      issuer: baseUrl,
      authorization_endpoint: `${baseUrl}/oauth2/authorize`,
      token_endpoint: `${baseUrl}/v1/oauth2/token`,
      code_challenge_methods_supported: ['S256', 'plain'],
    });
  });
});
