/** A JSON answer of /v1 as tests read it: its status, and its body with the 422 `detail` typed. */
export type V1Answer = {
  status: number;
  body: Record<string, unknown> & { detail?: { loc: unknown[]; msg: string }[] };
};

/**
 * A /v1 call with a bearer token and a JSON body, for what the SDK cannot send (bodies it would
 * refuse before sending, our extensions' fields) or to read the raw 422.
 */
export async function callV1(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<V1Answer> {
  const response = await fetch(`${baseUrl}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as V1Answer['body'] };
}
