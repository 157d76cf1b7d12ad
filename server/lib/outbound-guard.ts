import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { badRequest } from './app-error.ts';

/**
 * Addresses a user-supplied URL must never reach (docs/security.md#e3): unspecified, loopback,
 * private, CGNAT, link-local (cloud metadata included), ULA, multicast, reserved, and the
 * IPv4-mapped forms of all of these.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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
  if (!listed) throw fail(`${label} URL must point to ${allowed.join(' or ')}`);
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
