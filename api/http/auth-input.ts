import type { z } from 'zod';
import type { Auth } from '../auth/auth.js';
import { isWellFormedText, TEXT_MESSAGES } from '../../domain/platform/rules.js';
import { TEXT_MAX_LENGTH, textSchema } from '../../domain/platform/schemas.js';

// Better Auth validates the types of what it is sent, not the text: a NUL or an unpaired surrogate
// reached PostgreSQL from `/update-user` and `/organization/create` (names) and answered an empty
// 500. This guard runs in front of Better Auth's handler and refuses such input the way Better Auth
// refuses invalid input itself: 400 `{ code: 'VALIDATION_ERROR', message: '[body.<field>] …' }`.

/** Names Better Auth stores and shows: the text rule of every name of the API. */
const nameRule = textSchema({ max: TEXT_MAX_LENGTH.name });

type FieldRule = { paths: readonly string[]; field: readonly string[]; schema: z.ZodType<string> };

/**
 * Fields with a rule of their own, by endpoint (paths under /api/auth). A slug is unique, hence
 * indexed: bounded like a name, so that it always fits an index row.
 */
const FIELD_RULES: readonly FieldRule[] = [
  {
    paths: [
      '/sign-up/email',
      '/update-user',
      '/organization/create',
      '/organization/create-team',
      '/admin/create-user',
    ],
    field: ['name'],
    schema: nameRule,
  },
  {
    paths: ['/organization/update', '/organization/update-team', '/admin/update-user'],
    field: ['data', 'name'],
    schema: nameRule,
  },
  { paths: ['/organization/create', '/organization/check-slug'], field: ['slug'], schema: nameRule },
  { paths: ['/organization/update'], field: ['data', 'slug'], schema: nameRule },
];

type Refusal = { location: string; message: string };

/**
 * The first string PostgreSQL cannot store (NUL, an unpaired surrogate) anywhere in `value`, which
 * is where Better Auth may put any of it: a user's image, an organization's metadata, a token.
 */
function unstorableText(value: unknown, location: string): Refusal | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { location, message: TEXT_MESSAGES.controlCharacters };
    if (!isWellFormedText(value)) return { location, message: TEXT_MESSAGES.malformedUnicode };
    return null;
  }
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      const refusal = unstorableText(entry, `${location}.${index}`);
      if (refusal) return refusal;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      const refusal = unstorableText(key, location) ?? unstorableText(entry, `${location}.${key}`);
      if (refusal) return refusal;
    }
  }
  return null;
}

function fieldRefusal(path: string, body: unknown): Refusal | null {
  for (const rule of FIELD_RULES) {
    if (!rule.paths.includes(path)) continue;
    let value: unknown = body;
    for (const key of rule.field)
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value !== 'string') continue;
    const result = rule.schema.safeParse(value);
    if (!result.success) {
      return { location: ['body', ...rule.field].join('.'), message: result.error.issues[0]!.message };
    }
  }
  return null;
}

/** The body as Better Auth will read it: JSON or a form; anything else is not checked here. */
async function bodyOf(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!request.body) return undefined;
  try {
    if (/^application\/([\w.+-]*\+)?json/i.test(type)) return await request.clone().json();
    if (type.includes('application/x-www-form-urlencoded')) {
      return Object.fromEntries(new URLSearchParams(await request.clone().text()));
    }
  } catch {
    // Not parseable: Better Auth answers that itself.
  }
  return undefined;
}

async function refusalOf(request: Request, basePath: string): Promise<Refusal | null> {
  const url = new URL(request.url);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return { location: 'path', message: 'The URL is not correctly percent-encoded.' };
  }
  const endpoint = path.startsWith(basePath) ? path.slice(basePath.length) : path;
  const pathRefusal = unstorableText(endpoint, 'path');
  if (pathRefusal) return pathRefusal;
  for (const [name, value] of url.searchParams) {
    const refusal = unstorableText(name, 'query') ?? unstorableText(value, `query.${name}`);
    if (refusal) return refusal;
  }
  const body = await bodyOf(request);
  return unstorableText(body, 'body') ?? fieldRefusal(endpoint, body);
}

/** `auth` with the text rule checked in front of its HTTP handler; its server API is unchanged. */
export function withAuthInputRules(auth: Auth, basePath = '/api/auth'): Auth {
  return {
    ...auth,
    handler: async (request: Request) => {
      const refusal = await refusalOf(request, basePath);
      if (!refusal) return auth.handler(request);
      return Response.json(
        { code: 'VALIDATION_ERROR', message: `[${refusal.location}] ${refusal.message}` },
        { status: 400 },
      );
    },
  };
}
