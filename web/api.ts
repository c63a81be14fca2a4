import type { z } from 'zod';

export type ValidationIssue = { loc?: unknown[]; msg?: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The error's name in Polar's catalogue (`PaymentError`, `RefundAmountTooHigh`, …), when given. */
    readonly code: string | null = null,
    /** A 422's issues, for forms that show each next to its field. */
    readonly issues: ValidationIssue[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

export async function readError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { error?: unknown; detail?: unknown };
  return new ApiError(
    response.status,
    describeDetail(body.detail) ?? response.statusText,
    typeof body.error === 'string' ? body.error : null,
    Array.isArray(body.detail) ? (body.detail as ValidationIssue[]) : [],
  );
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

/** Sends a JSON body with the session cookie and validates the answer (an empty one reads as null). */
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
  const text = await response.text();
  return schema.parse(text ? JSON.parse(text) : null);
}

export async function deleteResource(url: string): Promise<void> {
  const response = await fetch(url, { method: 'DELETE', credentials: 'same-origin' });
  if (!response.ok) throw await readError(response);
}

/**
 * A failed save as a form shows it: each 422 issue next to the field it names (its `loc` after
 * "body", dotted, e.g. `product_id`) when the form has that field, anything else as one message
 * for the whole form (403s, 410s, and issues about fields the form does not show).
 */
export function formErrors(
  failure: unknown,
  fields: readonly string[],
): { fields: Record<string, string>; form: string | null } {
  if (!(failure instanceof ApiError) || failure.status !== 422 || failure.issues.length === 0) {
    return { fields: {}, form: (failure as Error).message };
  }
  const found: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of failure.issues) {
    const path = issue.loc ?? [];
    const key = (path[0] === 'body' ? path.slice(1) : path).map(String).join('.');
    const message = issue.msg ?? 'This value is not valid.';
    if (fields.includes(key)) found[key] ??= message;
    else rest.push(message);
  }
  return { fields: found, form: rest.length > 0 ? rest.join(' ') : null };
}
