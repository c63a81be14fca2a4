import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHttpWebhookSender, type WebhookTargetPolicy } from './webhook-sender.js';

const SANDBOX: WebhookTargetPolicy = {
  requireHttps: false,
  allowLoopback: true,
  allowPrivateNetworks: false,
};
const LIVE: WebhookTargetPolicy = { requireHttps: true, allowLoopback: false, allowPrivateNetworks: false };

/** A resolver that answers what the test says, as a name under the seller's control could. */
const resolvingTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('the HTTP webhook sender', () => {
  let server: Server;
  let port = 0;
  const received: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req);
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses loopback, private, link-local and metadata targets outside sandbox mode, by every spelling', async () => {
    const sender = createHttpWebhookSender(LIVE, resolvingTo('93.184.215.14'));
    for (const url of [
      'https://127.0.0.1:5432/',
      'https://127.1/',
      'https://2130706433/',
      'https://0x7f000001/',
      'https://[::1]:7233/',
      'https://[::ffff:127.0.0.1]/',
      'https://10.0.0.1/',
      'https://192.168.1.20/',
      'https://100.64.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://[fe80::1]/',
    ]) {
      expect(await sender.checkTarget(url)).toEqual(expect.any(String));
    }
    expect(await sender.checkTarget('http://hooks.example.com/')).toBe('Webhook URLs must use https.');
    expect(await sender.checkTarget('https://hooks.example.com/')).toBeNull();
  });

  it('checks every address a name resolves to', async () => {
    const mixed = createHttpWebhookSender(LIVE, resolvingTo('93.184.215.14', '10.1.2.3'));
    expect(await mixed.checkTarget('https://hooks.example.com/')).toMatch(/private network/);
    const loopback = createHttpWebhookSender(LIVE, resolvingTo('::ffff:127.0.0.1'));
    expect(await loopback.checkTarget('https://rebound.example.com/')).toMatch(/this server itself/);
    // A name that does not resolve yet is accepted; every delivery checks it again.
    const unresolved = createHttpWebhookSender(LIVE, async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    expect(await unresolved.checkTarget('https://not-yet.example.com/')).toBeNull();
  });

  it('allows private networks only when the operator does, and link-local never', async () => {
    const allowing = createHttpWebhookSender(
      { ...LIVE, allowPrivateNetworks: true },
      resolvingTo('10.1.2.3'),
    );
    expect(await allowing.checkTarget('https://hooks.corp.example/')).toBeNull();
    expect(await allowing.checkTarget('https://169.254.169.254/')).toMatch(/link-local or cloud metadata/);
    expect(await allowing.checkTarget('https://127.0.0.1/')).toMatch(/this server itself/);
  });

  it('does not connect when the name resolves to a refused address at delivery time', async () => {
    // Public when the endpoint was saved, this machine now: the connection is never made.
    const rebinding = createHttpWebhookSender(
      { requireHttps: false, allowLoopback: false, allowPrivateNetworks: false },
      resolvingTo('127.0.0.1'),
    );
    const before = received.length;
    const answer = await rebinding.post(`http://rebound.example.com:${port}/hook`, {}, '{}');
    expect(answer).toEqual({ httpCode: null, response: null, error: expect.stringMatching(/^Not sent: /) });
    expect(received.length).toBe(before);
    const literal = await rebinding.post(`http://127.0.0.1:${port}/hook`, {}, '{}');
    expect(literal.error).toMatch(/^Not sent: /);
    expect(received.length).toBe(before);
  });

  it('delivers where the rule allows, keeps only the start of the answer and follows no redirect', async () => {
    const sender = createHttpWebhookSender(SANDBOX, resolvingTo('127.0.0.1'));
    const answer = await sender.post(
      `http://localhost:${port}/hook`,
      { 'content-type': 'application/json' },
      '{}',
    );
    expect(answer.httpCode).toBe(200);
    expect(answer.response!.length).toBeLessThan(10_000);
    const before = received.length;
    const redirected = await sender.post(`http://127.0.0.1:${port}/redirect`, {}, '{}');
    expect(redirected.httpCode).toBe(302);
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)?.url).toBe('/redirect');
  });
});
