import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../../domain/platform/errors.js';
import {
  authorizeQuerySchema,
  authorizeResponseSchema,
  clientConfigurationSchema,
  clientConfigurationUpdateSchema,
  clientIdParamsSchema,
  clientSchema,
  consentBodySchema,
  consentResponseSchema,
  introspectResponseSchema,
  registeredClientSchema,
  revokeResponseSchema,
  tokenActionRequestSchema,
  tokenRequestSchema,
  tokenResponseSchema,
  userInfoSchema,
} from '../../domain/oauth2/schemas.js';
import { answerConsent, getAuthorization } from '../../domain/oauth2/authorization.js';
import { userInfo } from '../../domain/oauth2/bearer.js';
import {
  deleteRegisteredClient,
  readClient,
  registerClient,
  updateRegisteredClient,
  type RegistrationCredential,
} from '../../domain/oauth2/clients.js';
import { clientCredentialsOf, type OAuthServer } from '../../domain/oauth2/credentials.js';
import { introspectToken, requestToken, revokeToken } from '../../domain/oauth2/tokens.js';
import type { Db } from '../../infra/db.js';
import type { Auth } from '../auth/auth.js';
import { bearerTokenOf, sessionUserOf } from '../http/authenticate.js';
import type { OperationRegistry } from '../http/operations.js';

type Deps = { db: Db; auth: Auth; publicUrl: string };

/** The endpoints an app's own code calls, which a browser app (a public client with PKCE) calls cross-origin. */
export const OAUTH2_BROWSER_PATHS = [
  '/oauth2/token',
  '/oauth2/revoke',
  '/oauth2/introspect',
  '/oauth2/userinfo',
];

/**
 * CORS for the endpoints of OAUTH2_BROWSER_PATHS, from any origin, as Polar allows every origin on
 * its API. Without credentials: these endpoints never read the session cookie (each request
 * carries a client id, a secret or a token), so no site can act with a visitor's session here.
 * Preflights answer at once, before the rate limit; refusals carry the headers too, so the app
 * reads the RFC 6749 error instead of a CORS failure.
 */
export const oauth2BrowserCors: RequestHandler = (req, res, next) => {
  if (!req.headers.origin) return next();
  res.set({
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Polar-Version',
    'Access-Control-Max-Age': '600',
  });
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};

const common = { tag: 'oauth2' } as const;

async function signedInUserId(auth: Auth, req: Request): Promise<string | null> {
  const caller = await sessionUserOf(auth, req);
  return caller?.kind === 'user_session' ? caller.userId : null;
}

/** RFC 7592 §2: the registration access token (Bearer), else the session of the user who registered it. */
async function registrationCredential(auth: Auth, req: Request): Promise<RegistrationCredential> {
  const token = bearerTokenOf(req);
  if (token) return { registrationToken: token };
  const userId = await signedInUserId(auth, req);
  return userId ? { userId } : null;
}

/** RFC 6749 §5.1: token answers are never stored by caches. */
const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });

/**
 * Polar's OAuth2 authorization server (docs/oauth2.md). Every operation checks a credential of its
 * own (a session, a registration token, client credentials, an OAuth token), so they are registered
 * before the API's authentication and answer RFC 6749's errors.
 */
export function registerOAuth2Operations(api: OperationRegistry, { db, auth, publicUrl }: Deps) {
  const server: OAuthServer = { baseUrl: publicUrl };

  api.addPublic(
    {
      ...common,
      method: 'post',
      path: '/oauth2/register',
      operationId: 'oauth2:clients:create',
      summary: 'Register an OAuth app (RFC 7591); its secret and registration token are shown once',
      security: ['dashboard_session'],
      body: clientConfigurationSchema,
      response: registeredClientSchema,
      oauthStatuses: [400],
      errors: ['Unauthorized', 'NotPermitted'],
    },
    async ({ body, req, res }) => {
      const userId = await signedInUserId(auth, req);
      if (!userId) throw new AppError('Unauthorized', 'Sign in to register an OAuth app.');
      noStore(res);
      return registerClient(db, server, userId, body);
    },
  );
  api.addPublic(
    {
      ...common,
      method: 'get',
      path: '/oauth2/register/{client_id}',
      operationId: 'oauth2:clients:get',
      summary: "Read an OAuth app's registration (RFC 7592)",
      security: ['oauth2_registration_token', 'dashboard_session'],
      params: clientIdParamsSchema,
      response: clientSchema,
      oauthStatuses: [401],
      errors: ['NotPermitted'],
    },
    async ({ params, req }) =>
      readClient(db, server, params.client_id, await registrationCredential(auth, req)),
  );
  api.addPublic(
    {
      ...common,
      method: 'put',
      path: '/oauth2/register/{client_id}',
      operationId: 'oauth2:clients:update',
      summary: "Replace an OAuth app's registration (RFC 7592); its secret stays",
      security: ['oauth2_registration_token', 'dashboard_session'],
      params: clientIdParamsSchema,
      body: clientConfigurationUpdateSchema,
      response: clientSchema,
      oauthStatuses: [400, 401],
      errors: ['NotPermitted'],
    },
    async ({ params, body, req }) =>
      updateRegisteredClient(db, server, params.client_id, await registrationCredential(auth, req), body),
  );
  api.addPublic(
    {
      ...common,
      method: 'delete',
      path: '/oauth2/register/{client_id}',
      operationId: 'oauth2:clients:delete',
      summary: 'Delete an OAuth app (RFC 7592); its codes and tokens stop working',
      security: ['oauth2_registration_token', 'dashboard_session'],
      params: clientIdParamsSchema,
      status: 204,
      oauthStatuses: [401],
      errors: ['NotPermitted'],
    },
    async ({ params, req }) => {
      await deleteRegisteredClient(db, params.client_id, await registrationCredential(auth, req));
    },
  );
  api.addPublic(
    {
      ...common,
      method: 'get',
      path: '/oauth2/authorize',
      operationId: 'oauth2:authorize',
      summary: 'What the consent page asks: the app, the scopes and the organizations the user may choose',
      query: authorizeQuerySchema,
      response: authorizeResponseSchema,
      oauthStatuses: [400],
      oauthErrors: true,
    },
    async ({ query, req }) => getAuthorization(db, await signedInUserId(auth, req), query),
  );
  api.addPublic(
    {
      ...common,
      method: 'post',
      path: '/oauth2/consent',
      operationId: 'oauth2:consent',
      summary: "The signed-in user's answer on the consent page: where the browser goes next",
      extension:
        "The consent page's answer (Polar's private POST /v1/oauth2/consent, as JSON): the client's redirect URI with the code, or access_denied, and state.",
      security: ['dashboard_session'],
      body: consentBodySchema,
      response: consentResponseSchema,
      status: 200,
      oauthStatuses: [400],
      errors: ['Unauthorized', 'NotPermitted'],
    },
    async ({ body, req, res }) => {
      const userId = await signedInUserId(auth, req);
      if (!userId) throw new AppError('Unauthorized', 'Sign in to allow the app.');
      noStore(res);
      return answerConsent(db, userId, body);
    },
  );
  api.addPublic(
    {
      ...common,
      method: 'post',
      path: '/oauth2/token',
      operationId: 'oauth2:token',
      summary:
        "Exchange an authorization code (with PKCE), a refresh token or, for apps the operator allows, a user's web session for tokens",
      requestMediaType: 'application/x-www-form-urlencoded',
      body: tokenRequestSchema,
      response: tokenResponseSchema,
      status: 200,
      oauthStatuses: [400, 401],
      oauthErrors: true,
    },
    async ({ body, req, res }) => {
      noStore(res);
      return requestToken(db, clientCredentialsOf(req.get('authorization'), body), body);
    },
  );
  api.addPublic(
    {
      ...common,
      method: 'post',
      path: '/oauth2/revoke',
      operationId: 'oauth2:revoke',
      summary: 'Revoke an access token, or a refresh token and its whole authorization (RFC 7009)',
      requestMediaType: 'application/x-www-form-urlencoded',
      body: tokenActionRequestSchema,
      response: revokeResponseSchema,
      status: 200,
      oauthStatuses: [400, 401],
      oauthErrors: true,
    },
    async ({ body, req }) => revokeToken(db, clientCredentialsOf(req.get('authorization'), body), body),
  );
  api.addPublic(
    {
      ...common,
      method: 'post',
      path: '/oauth2/introspect',
      operationId: 'oauth2:introspect',
      summary: "What one of the client's tokens is, and whether it is active (RFC 7662)",
      requestMediaType: 'application/x-www-form-urlencoded',
      body: tokenActionRequestSchema,
      response: introspectResponseSchema,
      status: 200,
      oauthStatuses: [400, 401],
      oauthErrors: true,
    },
    async ({ body, req, res }) => {
      noStore(res);
      return introspectToken(db, server, clientCredentialsOf(req.get('authorization'), body), body);
    },
  );
  api.addPublic(
    {
      ...common,
      method: 'get',
      path: '/oauth2/userinfo',
      operationId: 'oauth2:userinfo',
      summary: 'Who the OAuth token speaks for (OpenID Connect UserInfo), with the claims its scopes allow',
      security: ['oauth2_access_token'],
      response: userInfoSchema,
      oauthStatuses: [401],
    },
    async ({ req }) => userInfo(db, bearerTokenOf(req)),
  );
}
