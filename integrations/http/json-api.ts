// One HTTP call to an outside JSON API (GitHub, Discord), bounded in time. Network failures and
// timeouts become errors that name the service, so a grant's error says who failed.

/** A grant step waits on these calls inside its transaction: a hung platform must not hold it. */
const TIMEOUT_MS = 15_000;

export type JsonAnswer = { status: number; body: unknown };

export async function callJsonApi(input: {
  /** The service's name, as errors say it. */
  service: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token requests). */
  form?: Record<string, string>;
}): Promise<JsonAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...input.headers };
  let body: string | undefined;
  if (input.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.json);
  } else if (input.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(input.form).toString();
  }
  let response: Response;
  try {
    response = await fetch(input.url, {
      method: input.method,
      headers,
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer in ${TIMEOUT_MS} ms`
        : error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
    throw new Error(
      `${input.service} could not be reached (${input.method} ${new URL(input.url).pathname}): ${reason}`,
      { cause: error },
    );
  }
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, body: parsed };
}

/** The platform's own words for a failure (`message`, `error_description`), kept short. */
export function reasonOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    const reason = fields.message ?? fields.error_description ?? fields.error;
    if (typeof reason === 'string') return reason.slice(0, 300);
  }
  return typeof body === 'string' ? body.slice(0, 300) : '';
}

/** An answer the caller did not expect, as an error the grant shows and Temporal retries. */
export function unexpectedAnswer(service: string, what: string, answer: JsonAnswer): Error {
  const reason = reasonOf(answer.body);
  return new Error(`${service} answered ${answer.status} to ${what}${reason ? `: ${reason}` : ''}`);
}
