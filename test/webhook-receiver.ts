import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = { headers: Record<string, string>; body: string; at: number };

function plainHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );
}

/**
 * A real HTTP receiver on loopback. `answer` picks each request's status (default 200), so tests
 * can fail, time out or answer 410 exactly where they need to.
 */
export async function startWebhookReceiver(
  answer: (request: ReceivedWebhook, index: number) => number | Promise<number> = () => 200,
) {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const request = {
        headers: plainHeaders(req.headers),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(request);
      const status = await answer(request, received.length - 1);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
    waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} webhook requests, got ${received.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
