// A recording proxy in front of stripe-mock, on a real socket: tests see exactly what the SDK sent
// (form parameters, Idempotency-Key, Stripe-Version) while stripe-mock validates it. A test can
// also make it answer in Stripe's place, for what stripe-mock never answers (declines, outages).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requireTestEnv } from './env.js';

export type RecordedStripeRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form-encoded body, as Stripe's API reads it (`metadata[checkout_id]`, `expand[0]`…). */
  form: URLSearchParams;
};

export type StripeProxy = {
  url: string;
  requests: RecordedStripeRequest[];
  /** Answer every following request with this status and Stripe error body, until `forward()`. */
  answer(status: number, error: Record<string, unknown>): void;
  /**
   * Answer the next request (or the next one to `path`) with this status and body (any Stripe
   * object), once; then carry on as before.
   */
  answerOnce(status: number, body: Record<string, unknown>, path?: string): void;
  forward(): void;
  stop(): Promise<void>;
};

export async function startStripeProxy(target = requireTestEnv('stripeMockUrl')): Promise<StripeProxy> {
  const requests: RecordedStripeRequest[] = [];
  let canned: { status: number; body: string } | null = null;
  const once: { status: number; body: string; path?: string }[] = [];

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://proxy');
      requests.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        headers: req.headers,
        form: new URLSearchParams(req.method === 'GET' ? url.search : body.toString('utf8')),
      });
      const onceIndex = once.findIndex((entry) => !entry.path || entry.path === url.pathname);
      const answer = onceIndex >= 0 ? once.splice(onceIndex, 1)[0] : canned;
      if (answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_proxy' });
        res.end(answer.body);
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
        ),
      );
      fetch(`${target}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        body: req.method === 'GET' ? undefined : body,
      })
        .then(async (upstream) => {
          // fetch has already decoded the body: its length and encoding headers no longer apply.
          const passed = [...upstream.headers].filter(
            ([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name),
          );
          res.writeHead(upstream.status, Object.fromEntries(passed));
          res.end(Buffer.from(await upstream.arrayBuffer()));
        })
        .catch((error: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(status, error) {
      canned = { status, body: JSON.stringify({ error }) };
    },
    answerOnce(status, body, path) {
      once.push({ status, body: JSON.stringify(body), path });
    },
    forward() {
      canned = null;
      once.length = 0;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
