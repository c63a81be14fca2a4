import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type ValidationIssue = { loc?: unknown[]; msg?: string };

/** `detail` as people should read it: a 422's issues become "website: Invalid URL; email: …". */
function describeDetail(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return null;
  return (detail as ValidationIssue[])
    .map((issue) => {
      // The first part says where (body, query, path), which means nothing on a form.
      const field = (issue.loc ?? []).slice(1).join('.');
      return field ? `${field}: ${issue.msg ?? 'invalid'}` : (issue.msg ?? 'invalid');
    })
    .join('; ');
}

async function readError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
  return new ApiError(response.status, describeDetail(body.detail) ?? response.statusText);
}

/** GETs a same-origin JSON resource and validates it; non-2xx answers still parse when `acceptStatuses` says so. */
export async function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  { acceptStatuses = [] as number[] } = {},
): Promise<z.output<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok && !acceptStatuses.includes(response.status)) throw await readError(response);
  return schema.parse(await response.json());
}

/** Sends a JSON body with the session cookie and validates the answer. */
export async function sendJson<S extends z.ZodType>(
  method: 'POST' | 'PATCH',
  url: string,
  body: unknown,
  schema: S,
): Promise<z.output<S>> {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await readError(response);
  return schema.parse(await response.json());
}

export async function deleteResource(url: string): Promise<void> {
  const response = await fetch(url, { method: 'DELETE', credentials: 'same-origin' });
  if (!response.ok) throw await readError(response);
}
