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

/** GETs a same-origin JSON resource and validates it; non-2xx answers still parse when `acceptStatuses` says so. */
export async function getJson<S extends z.ZodType>(
  url: string,
  schema: S,
  { acceptStatuses = [] as number[] } = {},
): Promise<z.output<S>> {
  const response = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok && !acceptStatuses.includes(response.status)) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
    const detail = typeof body.detail === 'string' ? body.detail : response.statusText;
    throw new ApiError(response.status, detail);
  }
  return schema.parse(await response.json());
}
