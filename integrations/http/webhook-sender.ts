// Webhook deliveries over HTTP, and the rule of where they may go. A seller chooses the URL, so
// without a rule any seller could make this server call (and read back) the operator's internal
// network: PostgreSQL, Temporal, cloud metadata services. Every address a name resolves to is
// checked when the endpoint is saved and again when each request connects (the connection uses
// the address that was checked, so a name that changes its answer in between gains nothing), and
// redirects are never followed.

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../../config/config.js';
import { DELIVERY_TIMEOUT_MS, excerpt, RESPONSE_EXCERPT_CHARS } from '../../domain/webhooks/rules.js';
import type { HttpAnswer, WebhookSender } from '../../domain/webhooks/service.js';
import { classifyAddress, type AddressClass } from './addresses.js';

export type WebhookTargetPolicy = {
  /** Only https (production deployments; Polar requires it too). */
  requireHttps: boolean;
  /** This machine (sandbox mode, so local development and tests can receive webhooks). */
  allowLoopback: boolean;
  /** Private networks (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10), when the operator allows them. */
  allowPrivateNetworks: boolean;
};

/** Names that lead to a cloud metadata service, whatever they resolve to where they are checked. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

const NEVER = 'This URL points to a link-local or cloud metadata address, which webhooks never reach.';

/** Why `kind` may not be called under `policy`, in the seller's words; null when it may. */
function refusalFor(kind: AddressClass, policy: WebhookTargetPolicy): string | null {
  switch (kind) {
    case 'public':
      return null;
    case 'loopback':
      return policy.allowLoopback
        ? null
        : 'This URL points to this server itself; webhooks reach it only in sandbox mode.';
    case 'private':
    case 'shared':
      return policy.allowPrivateNetworks
        ? null
        : 'This URL points to a private network address; webhooks reach public addresses only (the operator can allow private networks).';
    case 'link_local':
      return NEVER;
    case 'multicast':
    case 'reserved':
      return 'This URL points to an address webhooks cannot reach.';
  }
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const resolveAll: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

class RefusedTarget extends Error {}

function parseTarget(value: string, policy: WebhookTargetPolicy): { url: URL; host: string } | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL, such as https://example.com/webhooks.';
  }
  if (url.protocol !== 'https:' && (policy.requireHttps || url.protocol !== 'http:')) {
    return policy.requireHttps ? 'Webhook URLs must use https.' : 'Webhook URLs must use https or http.';
  }
  // The WHATWG parser has already turned 127.1, 2130706433 and 0x7f000001 into 127.0.0.1.
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (METADATA_HOSTS.has(host)) return NEVER;
  return { url, host };
}

function firstRefusal(addresses: readonly string[], policy: WebhookTargetPolicy): string | null {
  for (const address of addresses) {
    const refusal = refusalFor(classifyAddress(address), policy);
    if (refusal) return refusal;
  }
  return null;
}

/** A DNS lookup for http(s).request that refuses a name when any of its addresses is refused. */
function guardedLookup(policy: WebhookTargetPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refusal = firstRefusal(
          addresses.map(({ address }) => address),
          policy,
        );
        if (refusal) return callback(new RefusedTarget(refusal), '', 0);
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter(({ family }) => wanted === 0 || family === wanted);
        if (options.all) return (callback as (error: null, all: LookupAddress[]) => void)(null, usable);
        const [first] = usable;
        if (!first)
          return callback(
            Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  lookup: LookupFunction,
): Promise<{ status: number; text: string }> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          // The rest of a large answer is never downloaded.
          if (text.length >= RESPONSE_EXCERPT_CHARS) response.destroy();
        });
        const done = () => resolve({ status: response.statusCode ?? 0, text });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function failureMessage(error: unknown): string {
  if (error instanceof RefusedTarget) return `Not sent: ${error.message}`;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  return error instanceof Error
    ? `${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}`
    : String(error);
}

/** The deployment's rule: https in production, loopback in sandbox mode, private networks if allowed. */
export function webhookTargetPolicy(
  config: Pick<Config, 'NODE_ENV' | 'isSandbox' | 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'>,
): WebhookTargetPolicy {
  return {
    requireHttps: config.NODE_ENV === 'production',
    allowLoopback: config.isSandbox,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  };
}

export function createHttpWebhookSender(
  policy: WebhookTargetPolicy,
  resolve: Resolve = resolveAll,
): WebhookSender {
  const lookup = guardedLookup(policy, resolve);
  return {
    async checkTarget(value) {
      const target = parseTarget(value, policy);
      if (typeof target === 'string') return target;
      if (isIP(target.host)) return firstRefusal([target.host], policy);
      // A name that does not resolve yet may be set up later; each delivery checks it again.
      const addresses = await resolve(target.host).catch(() => []);
      return firstRefusal(
        addresses.map(({ address }) => address),
        policy,
      );
    },
    async post(value, headers, body): Promise<HttpAnswer> {
      const target = parseTarget(value, policy);
      const refusal =
        typeof target === 'string' ? target : isIP(target.host) ? firstRefusal([target.host], policy) : null;
      if (refusal || typeof target === 'string') {
        return { httpCode: null, response: null, error: `Not sent: ${refusal ?? String(target)}` };
      }
      try {
        const { status, text } = await post(target.url, headers, body, lookup);
        return { httpCode: status, response: excerpt(text), error: null };
      } catch (error) {
        return { httpCode: null, response: null, error: excerpt(failureMessage(error), 500) };
      }
    },
  };
}
