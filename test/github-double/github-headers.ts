import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Caller, RateResource } from './quota.ts';
import type { RateLimitValues } from './shapes.ts';
import { hashSha256 } from './stable-hash.ts';

/**
 * Response headers as api.github.com sends them (copied from @octokit/fixtures' raw recordings),
 * plus the ETag and request-id rules.
 */

const EXPOSED_HEADERS =
  'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, ' +
  'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, ' +
  'X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';

/** Headers every answer carries, errors included. */
export function commonHeaders(requestId: string, caller: Caller): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    server: 'GitHub.com',
    'x-github-media-type': 'github.v3; format=json',
    'x-github-api-version-selected': '2022-11-28',
    'access-control-expose-headers': EXPOSED_HEADERS,
    'access-control-allow-origin': '*',
    'strict-transport-security': 'max-age=31536000; includeSubdomains; preload',
    'x-frame-options': 'deny',
    'x-content-type-options': 'nosniff',
    'x-xss-protection': '0',
    'referrer-policy': 'origin-when-cross-origin, strict-origin-when-cross-origin',
    'content-security-policy': "default-src 'none'",
    // GitHub sends two Vary lines (this, then 'Accept-Encoding, Accept, X-Requested-With');
    // one line with their union means the same to a cache.
    vary: 'Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, X-Requested-With',
    'x-github-request-id': requestId,
  };
  if (caller.kind === 'token') {
    headers['x-oauth-scopes'] = 'repo';
    headers['x-accepted-oauth-scopes'] = 'repo';
  }
  return headers;
}

export function rateLimitHeaders(values: RateLimitValues, resource: RateResource): OutgoingHttpHeaders {
  return {
    'x-ratelimit-limit': String(values.limit),
    'x-ratelimit-remaining': String(values.remaining),
    'x-ratelimit-reset': String(values.reset),
    'x-ratelimit-used': String(values.used),
    'x-ratelimit-resource': resource,
  };
}

/** Cacheable 200s: private with a token (per-user), public without, as GitHub marks them. */
export function cacheControl(caller: Caller): string {
  return `${caller.kind === 'token' ? 'private' : 'public'}, max-age=60, s-maxage=60`;
}

/**
 * Weak ETag over the body and the caller: GitHub's ETags are tied to the token that fetched
 * them, so a 304 can't be had with another token's ETag.
 */
export function entityTag(body: string, caller: Caller): string {
  const identity = caller.kind === 'token' ? `token:${hashSha256(caller.token)}` : 'anonymous';
  return `W/"${hashSha256(`${identity}\n${body}`)}"`;
}

/** If-None-Match with a list of tags or `*`, compared weakly (W/ prefix ignored) as RFC 9110 says. */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) {
    return false;
  }
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** GitHub's request id shape: five colon-separated hex groups, e.g. 0687:0D5B:29F123D:4E0B9D8:62D6351D. */
export function newRequestId(): string {
  const hex = randomBytes(15).toString('hex').toUpperCase();
  return `${hex.slice(0, 4)}:${hex.slice(4, 8)}:${hex.slice(8, 15)}:${hex.slice(15, 22)}:${hex.slice(22, 30)}`;
}

/** RFC 9110 HTTP date for Last-Modified. */
export function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}
