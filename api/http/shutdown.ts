import type { Server } from 'node:http';

/**
 * Stops accepting connections and resolves once every in-flight request has been answered; after
 * `graceMs` the remaining connections are cut so a stuck client cannot hold a deploy forever.
 */
export async function drainServer(server: Server, graceMs: number, onForceClose?: () => void): Promise<void> {
  const forceClose = setTimeout(() => {
    onForceClose?.();
    server.closeAllConnections();
  }, graceMs);
  forceClose.unref();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Idle keep-alive sockets carry no request; closing them lets close() finish promptly.
  server.closeIdleConnections();
  await closed;
  clearTimeout(forceClose);
}
