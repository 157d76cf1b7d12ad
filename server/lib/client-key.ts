import type { FastifyRequest } from 'fastify';

/**
 * The rate-limit key of a client: its address, with IPv6 grouped by /64 since one host
 * usually holds a whole /64 (docs/security.md#a4). `request.ip` already honours TRUST_PROXY only.
 */
export function clientKey(request: FastifyRequest): string {
  const ip = request.ip;
  if (!ip.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const groups = expandIPv6(ip);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIPv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => '0');
  return [...left, ...(ip.includes('::') ? zeros : []), ...right].map((group) => group.toLowerCase() || '0');
}
