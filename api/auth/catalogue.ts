import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { BetterAuthPlugin } from 'better-auth';

/**
 * Spec §8 is the contract for messages and statuses. Where Better Auth 1.7 words or answers
 * differently (docs/better-auth-1.7-notes.md), the answer is rewritten by its machine `code`,
 * which is kept beside the message.
 */
export const SPEC_ERROR_CATALOGUE: Record<string, { message?: string; status?: number }> = {
  ORGANIZATION_SLUG_ALREADY_TAKEN: { message: 'slug is taken' },
  INVITATION_NOT_FOUND: { message: 'Invitation not found' },
  ROLE_NOT_FOUND: { message: 'Role not found' },
  YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER: { status: 403 },
  INVALID_USERNAME_OR_PASSWORD: { message: 'invalid username or password', status: 401 },
  USERNAME_IS_ALREADY_TAKEN: { message: 'username is already taken. please try another.' },
  USERNAME_TOO_SHORT: { message: 'username is too short', status: 422 },
  USERNAME_TOO_LONG: { message: 'username is too long', status: 422 },
  INVALID_USERNAME: { message: 'username is invalid', status: 422 },
  INVALID_TWO_FACTOR_COOKIE: { message: 'invalid two factor cookie' },
  INVALID_CODE: { message: 'invalid two factor authentication', status: 401 },
  INVALID_TOKEN: { message: 'invalid token' },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { message: 'User already exists' },
};

type ErrorBody = { code?: unknown; message?: unknown };

/** Errors Better Auth 1.7 throws without a `code`, recognised by their message instead. */
const UNCODED_ERRORS: [RegExp, string][] = [[/^ROLE_NOT_FOUND: /, 'ROLE_NOT_FOUND']];

function codeOf(body: ErrorBody): string | undefined {
  if (typeof body.code === 'string') return body.code;
  if (typeof body.message !== 'string') return undefined;
  const message = body.message;
  return UNCODED_ERRORS.find(([pattern]) => pattern.test(message))?.[1];
}

/**
 * Errors whose text depends on the route (one code, two catalogue entries): the username sign-in's
 * unverified email is "email not verified", the generic one "Email not verified".
 */
const ROUTE_ERRORS: { path: string; code: string; message: string }[] = [
  { path: '/sign-in/username', code: 'EMAIL_NOT_VERIFIED', message: 'email not verified' },
];

/**
 * Redirect error codes outside spec §8's list, mapped to the listed code that means the same: a
 * provider callback whose state matches no sign-in attempt of this browser.
 */
const REDIRECT_ERROR_CODES: Record<string, string> = { state_mismatch: 'state_not_found' };

function rewriteRedirectError(response: Response): Response | undefined {
  const location = response.headers.get('location');
  if (response.status < 300 || response.status >= 400 || !location) return undefined;
  const url = new URL(location, 'http://relative.invalid');
  const replacement = REDIRECT_ERROR_CODES[url.searchParams.get('error') ?? ''];
  if (!replacement) return undefined;
  url.searchParams.set('error', replacement);
  const headers = new Headers(response.headers);
  headers.set(
    'location',
    url.origin === 'http://relative.invalid' ? `${url.pathname}${url.search}` : url.toString(),
  );
  return new Response(null, { status: response.status, headers });
}

/** Rewrites catalogue errors on their way out of /api/auth (every route, HTTP only). */
export function specErrorCatalogue(): BetterAuthPlugin {
  return {
    id: 'tollgate-error-catalogue',
    hooks: {
      after: ROUTE_ERRORS.map(({ path, code, message }) => ({
        matcher: (ctx) => ctx.path === path,
        handler: createAuthMiddleware(async (ctx) => {
          const returned = ctx.context.returned;
          if (!isAPIError(returned) || returned.body?.code !== code) return;
          // A Response (rather than a thrown error) keeps the status of the original answer.
          return new Response(JSON.stringify({ ...returned.body, message }), {
            status: returned.statusCode,
            headers: { 'content-type': 'application/json' },
          });
        }),
      })),
    },
    async onResponse(response) {
      const redirect = rewriteRedirectError(response);
      if (redirect) return { response: redirect };
      if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json'))
        return;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as ErrorBody | null;
      const code = body ? codeOf(body) : undefined;
      const rewrite = code ? SPEC_ERROR_CATALOGUE[code] : undefined;
      if (!body || !rewrite) return;
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return {
        response: new Response(JSON.stringify({ ...body, code, message: rewrite.message ?? body.message }), {
          status: rewrite.status ?? response.status,
          headers,
        }),
      };
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ID_FIELDS = ['organizationId', 'invitationId', 'userId', 'teamId', 'memberId'] as const;
const QUERY_ID_PATHS = new Set(['/organization/get-invitation', '/admin/get-user']);

/**
 * Ids are PostgreSQL uuids: a malformed one would surface as a database error (an empty 500).
 * Refuse it up front with a 400 that names the field.
 */
export const rejectMalformedIds = createAuthMiddleware(async (ctx) => {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const candidates: [string, unknown][] = ID_FIELDS.map((field) => [field, body[field]]);
  const memberIdOrEmail = body.memberIdOrEmail;
  if (typeof memberIdOrEmail === 'string' && !memberIdOrEmail.includes('@')) {
    candidates.push(['memberIdOrEmail', memberIdOrEmail]);
  }
  if (QUERY_ID_PATHS.has(ctx.path))
    candidates.push(['id', (ctx.query as Record<string, unknown> | undefined)?.id]);
  for (const [field, value] of candidates) {
    if (typeof value === 'string' && !UUID.test(value)) {
      throw new APIError('BAD_REQUEST', { message: `${field} must be a UUID`, code: 'INVALID_ID' });
    }
  }
});
