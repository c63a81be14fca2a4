// Which network an IP address belongs to, for deciding where outgoing requests (webhooks) may go.
// Pure: no lookups here; the caller resolves names and asks about every address.

import { isIP } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  /** Link-local, where cloud metadata services answer (169.254.169.254, fe80::/10). */
  | 'link_local'
  /** Carrier-grade NAT (100.64.0.0/10): someone's private network. */
  | 'shared'
  | 'multicast'
  /** Unspecified, documentation, benchmarking and other ranges nobody should be asked to call. */
  | 'reserved';

type Range = { bits: bigint; prefix: number; width: 32 | 128; kind: AddressClass };

function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((bits, part) => (bits << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv6 address as 128 bits; an embedded dotted IPv4 tail (`::ffff:1.2.3.4`) included. */
function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Bits(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headParts.length - tailParts.length;
  const parts = [
    ...headParts,
    ...Array.from({ length: tail === undefined ? 0 : missing }, () => '0'),
    ...tailParts,
  ];
  return parts.reduce((bits, part) => (bits << 16n) | BigInt(parseInt(part, 16)), 0n);
}

const v4 = (cidr: string, kind: AddressClass): Range => {
  const [address, prefix] = cidr.split('/');
  return { bits: ipv4Bits(address!), prefix: Number(prefix), width: 32, kind };
};
const v6 = (cidr: string, kind: AddressClass): Range => {
  const [address, prefix] = cidr.split('/');
  return { bits: ipv6Bits(address!), prefix: Number(prefix), width: 128, kind };
};

// IANA's special-purpose registries (RFC 6890 and successors); anything else is public.
const RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'reserved'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link_local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
  v6('::/128', 'reserved'),
  v6('::1/128', 'loopback'),
  v6('100::/64', 'reserved'),
  v6('2001:db8::/32', 'reserved'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link_local'),
  v6('ff00::/8', 'multicast'),
];

function inRange(bits: bigint, width: 32 | 128, range: Range): boolean {
  if (range.width !== width) return false;
  const shift = BigInt(width - range.prefix);
  return bits >> shift === range.bits >> shift;
}

/**
 * The class of an IP address (v4 or v6). IPv6 forms that carry an IPv4 address (mapped
 * `::ffff:a.b.c.d`, the deprecated compatible `::a.b.c.d`, and NAT64 `64:ff9b::/96`) are judged by
 * that address, so `::ffff:127.0.0.1` is loopback. Throws on text that is not an address.
 */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) {
    const bits = ipv4Bits(address);
    return RANGES.find((range) => inRange(bits, 32, range))?.kind ?? 'public';
  }
  if (family !== 6) throw new Error(`not an IP address: ${address}`);
  const bits = ipv6Bits(address);
  const high96 = bits >> 32n;
  const embedded = bits & 0xffffffffn;
  if (high96 === 0xffffn || (high96 === 0n && embedded > 1n) || bits >> 32n === 0x64ff9b0000000000000000n) {
    const dotted = [24n, 16n, 8n, 0n].map((shift) => String((embedded >> shift) & 0xffn)).join('.');
    return classifyAddress(dotted);
  }
  return RANGES.find((range) => inRange(bits, 128, range))?.kind ?? 'public';
}
