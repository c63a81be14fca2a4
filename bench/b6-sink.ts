// B6's webhook receiver: a bare Node HTTP server that reads each body and answers 200, in its own
// process so that neither the load generator nor the worker shares its event loop.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
