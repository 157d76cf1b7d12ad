import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { badRequest } from './app-error.ts';

/**
 * IPv4 addresses a user-supplied URL must never reach (docs/security.md#e3): unspecified,
 * loopback, private, CGNAT, link-local (cloud metadata included), the IETF and documentation
 * blocks, benchmarking, the old 6to4 relay anycast, multicast and reserved.
 */
const blockedIPv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blockedIPv4.addSubnet(network, prefix, 'ipv4');
}

/**
 * IPv6 blocks refused whole. The forms that carry an IPv4 address the guard can read (mapped,
 * NAT64's well-known prefix, 6to4) are judged by that address instead (`embeddedIPv4`); the
 * ones below either embed one that can't be trusted or reach nothing public.
 */
const blockedIPv6 = new BlockList();
for (const [network, prefix] of [
  // Unspecified, loopback, and the deprecated IPv4-compatible form ::a.b.c.d (`::7f00:1` is 127.0.0.1).
  ['::', 96],
  // IPv4-translated (SIIT, `::ffff:0:a.b.c.d`): `::ffff:0:7f00:1` is 127.0.0.1 to a translator.
  ['::ffff:0:0:0', 96],
  // Local-use NAT64 (RFC 8215): the site translates it to whatever it likes, private networks included.
  ['64:ff9b:1::', 48],
  // Discard-only.
  ['100::', 64],
  // IETF protocol assignments: Teredo (2001::/32, an IPv4 address in disguise), benchmarking, ORCHID.
  ['2001::', 23],
  // Documentation.
  ['2001:db8::', 32],
  ['3fff::', 20],
  // SRv6 segment identifiers.
  ['5f00::', 16],
  // Unique local, deprecated site-local, link-local, multicast.
  ['fc00::', 7],
  ['fec0::', 10],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blockedIPv6.addSubnet(network, prefix, 'ipv6');
}

/** The eight 16-bit groups of a valid IPv6 address (as `isIP` accepts it, no zone). */
function ipv6Groups(address: string): number[] {
  let head = address.toLowerCase();
  const tail: number[] = [];
  const dotted = head.match(/^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    head = (dotted[1] as string).endsWith('::') ? (dotted[1] as string) : (dotted[1] as string).slice(0, -1);
  }
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((group) => Number.parseInt(group, 16)) : [];
  const [before, after] = head.split('::');
  const left = parse(before);
  const right = parse(after);
  const zeros = after === undefined ? 0 : 8 - tail.length - left.length - right.length;
  return [...left, ...new Array<number>(zeros).fill(0), ...right, ...tail];
}

/**
 * The IPv4 address an IPv6 one stands for, where the form says it plainly: IPv4-mapped
 * (`::ffff:a.b.c.d`), NAT64's well-known prefix (`64:ff9b::a.b.c.d`, which a DNS64 resolver
 * gives for IPv4-only hosts) and 6to4 (`2002:aabb:ccdd::/48`).
 */
function embeddedIPv4(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return quad(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return quad(g6, g7);
  if (g0 === 0x2002) return quad(g1, g2);
  return undefined;
}

/**
 * Whether a user-supplied URL may not reach this address (docs/security.md#e3): anything that
 * is not a plain IP address, every blocked IPv4 range, and in IPv6 the blocked blocks and every
 * form that carries a blocked IPv4 address.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedIPv4.check(address, 'ipv4');
  if (family !== 6 || address.includes('%')) return true;
  const embedded = embeddedIPv4(ipv6Groups(address));
  if (embedded !== undefined) return blockedIPv4.check(embedded, 'ipv4');
  return blockedIPv6.check(address, 'ipv6');
}

export type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks a webhook URL against `WEBHOOK_ALLOWED_HOSTS` and the address guard, on save and again before every
 * send (docs/product.md#account-api). Returns the normalised URL; throws a 400 saying what is wrong.
 *
 * - https only; http only for a listed loopback `host:port` (the test sink)
 * - no credentials; host (or host:port) exactly in the allow-list
 * - hooks.slack.com URLs must be `/services/…`
 * - a listed public host must not resolve to a blocked address (DNS rebinding, poisoning)
 */
export async function checkWebhookUrl(
  raw: string,
  allowedHosts: string[],
  resolve: Resolver = systemResolver,
  /** How the messages name the URL: notification channels say 'Webhook URL', 'Discord webhook URL'. */
  label = 'Slack webhook',
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw badRequest(`${label} URL must be a valid URL`, {
      url: `${label} URL must be a valid URL`,
    });
  }
  const fail = (message: string) => badRequest(message, { url: message });
  if (url.username || url.password) throw fail(`${label} URL must not contain credentials`);
  const hostname = url.hostname.toLowerCase();
  const hostWithPort = url.port ? `${hostname}:${url.port}` : hostname;
  const allowed = allowedHosts.map((host) => host.toLowerCase());
  const listed = allowed.includes(hostWithPort) || (!url.port && allowed.includes(hostname));
  // The allow-list is the operator's: a member is told their host isn't on it, never what is.
  if (!listed) throw fail(`${label} URL must point to an allowed host: this host is not allowed`);
  const loopback = LOOPBACK_NAMES.has(hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && url.port)) {
    throw fail(`${label} URL must use https`);
  }
  if (hostname === 'hooks.slack.com' && !url.pathname.startsWith('/services/')) {
    throw fail('Slack webhook URL must look like https://hooks.slack.com/services/…');
  }
  if (url.hash) throw fail(`${label} URL must not contain a fragment`);
  // A listed loopback test sink is trusted configuration; every other host must resolve publicly.
  if (!loopback) {
    let addresses: string[];
    try {
      addresses = isIP(hostname.replace(/^\[|\]$/g, ''))
        ? [hostname.replace(/^\[|\]$/g, '')]
        : await resolve(hostname);
    } catch {
      throw fail(`${label} host ${hostname} could not be resolved`);
    }
    if (addresses.length === 0 || addresses.some(isBlockedAddress)) {
      throw fail(`${label} host ${hostname} resolves to a private or reserved address`);
    }
  }
  return url;
}
