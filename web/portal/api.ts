import type { z } from 'zod';
import { ApiError, readError } from '../api';
import { endPortalSession, readPortalToken } from './session';

// The portal calls `/v1/customer-portal/*` with the buyer's customer session token; the seller's
// dashboard cookie, if this browser has one, is never sent (`credentials: 'omit'`).

const BASE = '/v1/customer-portal';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

async function send<S extends z.ZodType>(
  method: Method,
  path: string,
  body: unknown,
  schema: S,
  token: string | null,
  base = BASE,
): Promise<z.output<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, {
    method,
    credentials: 'omit',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await readError(response);
  const text = await response.text();
  return schema.parse(text ? JSON.parse(text) : null);
}

/**
 * A call of the signed-in buyer. A 401 ends the session (expired, or the customer was deleted):
 * the portal then shows its sign-in page with "Your session has ended".
 */
export async function portalCall<S extends z.ZodType>(
  slug: string,
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  const token = readPortalToken(slug);
  if (!token) throw new ApiError(401, 'Sign in to see this page.');
  try {
    return await send(method, path, body, schema, token);
  } catch (failure) {
    // Only the token that failed: a sign-in that happened meanwhile stays.
    if (failure instanceof ApiError && failure.status === 401 && readPortalToken(slug) === token) {
      endPortalSession(slug, 'expired');
    }
    throw failure;
  }
}

/** The calls that take no session: the seller's page, signing in, a license key's own checks. */
export function publicPortalCall<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  return send(method, path, body, schema, null);
}

/** The invited person's calls about a seat (`/v1/customer-seats/claim`): the link's token, no session. */
export function seatClaimCall<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  return send(method, path, body, schema, null, '/v1/customer-seats');
}

/** Answers (401, 403, 404, 422) are not hiccups: asking again would only repeat them. */
export function retryServerErrorsOnce(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status > 0 && error.status < 500) return false;
  return failureCount < 1;
}
