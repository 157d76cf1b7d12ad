import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DoubleAdvisory, NewAdvisory } from './advisories.ts';
import { type DoubleRepository, getCatalogue } from './catalogue.ts';
import { CONTROL_PREFIX, handleControlRequest } from './control-routes.ts';
import { type FaultInjector, FaultState, type GraphqlTime } from './faults.ts';
import {
  cacheControl,
  commonHeaders,
  entityTag,
  httpDate,
  matchesIfNoneMatch,
  newRequestId,
  rateLimitHeaders,
} from './github-headers.ts';
import { tokenOwnerAccount } from './people.ts';
import {
  type Caller,
  DEFAULT_QUOTA_LIMITS,
  QuotaLedger,
  type QuotaLimits,
  type RateResource,
} from './quota.ts';
import { SNAPSHOT_DATES, type SnapshotDate } from './ranking-snapshots.ts';
import { type DoubleRelease, type ReleaseStyle, releaseStyleOf } from './releases.ts';
import { RepositoryDirectory } from './repository-directory.ts';
import { type RecordedRequest, type RequestCounts, RequestLog } from './request-log.ts';
import {
  type DoubleRoute,
  notFound,
  REST_ROUTES,
  type RouteContext,
  type RouteResult,
} from './rest-routes.ts';
import {
  type Admission,
  type SecondaryKind,
  type SecondaryLimitOptions,
  SecondaryLimits,
  secondaryPoints,
} from './secondary-limits.ts';
import { DOCS, type JsonValue, type RateLimitValues, restError } from './shapes.ts';

/**
 * An HTTP server on 127.0.0.1 that answers like api.github.com for the endpoints the app uses
 * (see README.md). Use its `url` as GITHUB_API_URL / Octokit's baseUrl.
 */

export interface GitHubDoubleOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Delay before every answer, in milliseconds. */
  latencyMs?: number;
  /** Which ranking snapshot to serve; the older one by default. */
  snapshot?: SnapshotDate;
  /** Tokens that may see private repositories. */
  privateAccessTokens?: readonly string[];
  /** Hourly budgets (default: 60 anonymous, 5000 per token); lower them to test exhaustion. */
  quota?: Partial<QuotaLimits>;
  /** Serve the /_double/ control routes (for a double in another process; see README.md). */
  control?: boolean;
  /**
   * Build GitHub's GraphQL schema before listening (about 0.2 s) instead of on the first
   * `POST /graphql`, for tests that time GraphQL answers.
   */
  preloadGraphqlSchema?: boolean;
  /**
   * GitHub's secondary rate limits, enforced per caller (README.md, "Secondary limits"):
   * GitHub's values by default; lower them, or shorten the minute with `windowMs`, in tests;
   * `false` turns enforcement off (the counters still count).
   */
  secondary?: SecondaryLimitOptions | false;
  /**
   * GraphQL execution time (README.md, "Query time"): `msPerConnection` per connection
   * request (0 by default: answers take only `latencyMs`), and GitHub's 10 s `limitMs` past
   * which a query answers 502 (charged).
   */
  graphqlTime?: Partial<GraphqlTime>;
}

export interface GitHubDouble {
  /** e.g. http://127.0.0.1:43117, without a trailing slash. */
  readonly url: string;
  readonly snapshot: SnapshotDate;
  readonly counts: RequestCounts;
  /** Every answered request, oldest first. */
  readonly requests: readonly RecordedRequest[];
  readonly inject: FaultInjector;
  resetCounts(): void;
  /**
   * Back to the state at start: snapshot, faults, counts, quota, removed and renamed
   * repositories and revoked tokens.
   */
  reset(): void;
  /** Serve the other snapshot from now on (GitHub changed between two syncs). */
  setSnapshot(date: SnapshotDate): void;
  grantPrivateAccess(token: string): void;
  /** The repository answers 404 from now on (deleted on GitHub). */
  removeRepository(fullName: string): void;
  restoreRepository(fullName: string): void;
  /** Rename or transfer: the old name answers 301 to /repositories/{id} from now on. */
  renameRepository(fullName: string, newFullName: string): void;
  /** Requests with this token answer 401 "Bad credentials" from now on. */
  revokeToken(token: string): void;
  /** The repository as the double currently serves it (ignoring privacy), for expected values. */
  getRepository(fullName: string): DoubleRepository | undefined;
  /** Releases and tags (README.md, "Releases"): publish, delete, push a tag, list as served. */
  readonly releases: {
    publish(fullName: string, release: PublishRelease): DoubleRelease;
    delete(fullName: string, tag: string): void;
    pushTag(fullName: string, tag: string): void;
    /** Newest first; drafts included only with `withDrafts`. */
    list(fullName: string, withDrafts?: boolean): DoubleRelease[];
    /** Tag names, newest first. */
    tags(fullName: string): string[];
    style(fullName: string): ReleaseStyle;
  };
  /** Security advisories (README.md, "Advisories"): a new one, published now; withdraw one (false: unknown id). */
  addAdvisory(advisory: NewAdvisory): DoubleAdvisory;
  withdrawAdvisory(ghsaId: string): boolean;
  /** The advisories served now (in this snapshot), oldest first. */
  listAdvisories(): DoubleAdvisory[];
  /**
   * Quota of a token, or of anonymous callers without one, without spending any: 'core'
   * (REST requests) by default, or 'graphql' (GraphQL points).
   */
  quota(token?: string, resource?: RateResource): RateLimitValues;
  resetQuota(): void;
  /**
   * The secondary limits and what they saw. `caller` is a token, or 'anonymous'; without it,
   * all callers together (peaks: the highest of any caller).
   */
  readonly secondary: {
    readonly limits: Required<SecondaryLimitOptions>;
    rejections(caller?: string): number;
    peakConcurrency(caller?: string): number;
    pointsInWindow(kind: SecondaryKind, caller?: string): number;
    peakPointsInWindow(kind: SecondaryKind, caller?: string): number;
  };
  /** Stops listening and destroys open sockets, hung requests included. */
  close(): Promise<void>;
}

/** A release a test publishes (the double's control route takes the same fields). */
export interface PublishRelease {
  tag: string;
  name?: string | null;
  body?: string | null;
  prerelease?: boolean;
  draft?: boolean;
}

export async function startGitHubDouble(options: GitHubDoubleOptions = {}): Promise<GitHubDouble> {
  const snapshot = options.snapshot ?? SNAPSHOT_DATES[0];
  // Build the catalogue before listening so the first request doesn't pay for it.
  getCatalogue(snapshot);
  if (options.preloadGraphqlSchema) {
    (await import('./graphql-schema.ts')).githubGraphqlSchema();
  }
  const directory = new RepositoryDirectory(snapshot, options.privateAccessTokens ?? []);
  const requireRepository = (fullName: string) => {
    const repo = directory.lookup(fullName);
    if (!repo) throw new Error(`GitHub double: no repository named ${fullName}`);
    return repo;
  };
  const ledger = new QuotaLedger({ ...DEFAULT_QUOTA_LIMITS, ...options.quota });
  const faults = new FaultState(options.latencyMs ?? 0, options.graphqlTime);
  const log = new RequestLog();
  const secondaryLimits = new SecondaryLimits(options.secondary);
  const revokedTokens = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let hungRequests: Array<() => void> = [];
  let closed = false;
  let baseUrl = '';
  // Set once listening; the control routes act on the public object.
  let self: GitHubDouble | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    entry: {
      key: string;
      caller: Caller;
      counted: boolean;
      aliases?: number;
      secondary?: boolean;
      receivedAt?: number;
    },
    status: number,
    headers: OutgoingHttpHeaders,
    body: string | undefined,
  ) => {
    if (body !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const transport = faults.transport;
    if (transport?.kind === 'huge-body') {
      sendHugeBody(res, headers, transport.bytes);
    } else if (transport?.kind === 'slow-drip' && body !== undefined) {
      drip(res, status, headers, body, transport.intervalMs);
    } else {
      res.writeHead(status, headers);
      res.end(body);
    }
    log.record({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      key: entry.key,
      status,
      authenticated: entry.caller.kind === 'token',
      token: entry.caller.kind === 'token' ? entry.caller.token : null,
      counted: entry.counted,
      at: Date.now(),
      ...(entry.receivedAt === undefined ? {} : { receivedAt: entry.receivedAt }),
      ...(entry.aliases === undefined ? {} : { aliases: entry.aliases }),
      ...(entry.secondary ? { secondary: true as const } : {}),
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (closed) {
      return;
    }
    if (options.control && self && req.url?.startsWith(CONTROL_PREFIX)) {
      const double = self;
      const { pathname } = new URL(req.url, baseUrl);
      const answer = await handleControlRequest(double, req.method ?? 'GET', pathname, () => readBody(req));
      const body = JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (faults.transport?.kind === 'reset') {
      log.record({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        key: 'reset',
        status: 0,
        authenticated: false,
        token: null,
        counted: false,
        at: Date.now(),
      });
      req.socket.resetAndDestroy();
      return;
    }
    if (faults.hanging) {
      hungRequests.push(() => {
        handle(req, res).catch(() => res.destroy());
      });
      return;
    }
    const receivedAt = Date.now();
    // Secondary limits judge a request as it arrives (in flight from now until answered).
    const arrival = new URL(req.url ?? '/', baseUrl).pathname;
    const secondaryKind: SecondaryKind =
      req.method === 'POST' && /^\/(api\/)?graphql$/.test(arrival) ? 'graphql' : 'rest';
    const forcedRetryAfterS = arrival === '/rate_limit' ? undefined : faults.takeSecondaryRefusal();
    const admission: Admission =
      forcedRetryAfterS !== undefined
        ? { admitted: false, retryAfterS: forcedRetryAfterS }
        : arrival === '/rate_limit'
          ? { admitted: true, release: () => {} }
          : secondaryLimits.admit(
              secondaryCaller(parseCaller(req.headers.authorization)),
              secondaryKind,
              secondaryPoints(req.method ?? 'GET', secondaryKind),
              Date.now(),
            );
    if (admission.admitted) res.once('close', admission.release);
    if (faults.latencyMs > 0) {
      await sleep(faults.latencyMs);
      if (closed) {
        return;
      }
    }
    const url = new URL(req.url ?? '/', baseUrl);
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const caller = parseCaller(req.headers.authorization);
    const match = matchRoute(method, url.pathname);
    const key = match ? `${req.method} ${match.route.template}` : `${req.method} (unmatched)`;
    const requestId = newRequestId();
    const headers = commonHeaders(requestId, caller);
    const reply = (
      status: number,
      body: JsonValue | undefined,
      counted: boolean,
      extra: OutgoingHttpHeaders = {},
    ) => send(req, res, { key, caller, counted }, status, { ...headers, ...extra }, json(body));

    const serverError = faults.takeServerError();
    if (serverError !== undefined) {
      // GitHub's front end answers these itself: no rate-limit headers, nothing charged.
      reply(serverError, { message: serverError === 503 ? 'Service Unavailable' : 'Server Error' }, false);
      return;
    }
    if (caller.kind === 'token' && revokedTokens.has(caller.token)) {
      reply(401, restError('Bad credentials', DOCS.root, 401), false);
      return;
    }

    const resource: RateResource | null = match ? match.route.resource : 'core';
    const nowMs = Date.now();
    if (!admission.admitted) {
      const refusal = secondaryRefusal(caller, resource ?? 'core', requestId, admission.retryAfterS, 403);
      send(
        req,
        res,
        { key, caller, counted: false, secondary: true },
        403,
        { ...headers, ...refusal.headers },
        json(refusal.body),
      );
      return;
    }
    if (resource !== null) {
      // GraphQL refuses over-limit queries itself (200 RATE_LIMITED, once it knows their cost).
      const primary = !match?.route.ownPrimaryLimit;
      const refusal = rateLimitRefusal(caller, resource, nowMs, requestId, remoteAddress(req), primary);
      if (refusal) {
        reply(refusal.status, refusal.body, false, refusal.headers);
        return;
      }
    }

    let result: RouteResult;
    if (match) {
      const context: RouteContext = {
        url,
        params: match.params,
        caller,
        baseUrl,
        directory,
        quota: (wanted) => quotaFor(caller, wanted, nowMs),
        faults,
        nowMs,
        requestId,
        readBody: () => readBody(req),
        headers: req.headers,
      };
      try {
        result = await match.route.handle(context);
      } catch (error) {
        console.error('GitHub double: route failed', error);
        reply(500, { message: 'Server Error' }, false);
        return;
      }
    } else {
      result = notFound();
    }

    if (result.delayMs) {
      // The query's execution time (graphqlTime): in flight, and answered, only after it.
      await sleep(result.delayMs);
      if (closed) {
        return;
      }
    }
    const body = json(result.body);
    const extra: OutgoingHttpHeaders = { ...result.headers };
    if (result.lastModified) {
      extra['last-modified'] = httpDate(result.lastModified);
    }
    let status = result.status;
    if (result.conditional && body !== undefined) {
      const etag = entityTag(body, caller);
      extra.etag = etag;
      extra['cache-control'] = cacheControl(caller);
      if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
        status = 304;
      }
    }
    // A 304 costs nothing only with a token; anonymous 304s still count (GitHub's rule).
    const points = result.points ?? 1;
    const counted = resource !== null && points > 0 && !(status === 304 && caller.kind === 'token');
    // A GraphQL time-out is charged but sends no x-ratelimit headers (rateLimit null).
    const charged = counted && resource !== null ? ledger.charge(caller, resource, points) : undefined;
    const quota =
      result.rateLimit !== undefined
        ? result.rateLimit
        : resource === null
          ? quotaFor(caller, 'core', nowMs)
          : (charged ?? ledger.peek(caller, resource));
    if (quota) {
      Object.assign(extra, rateLimitHeaders(quota, resource ?? 'core'));
    }
    const entry = { key, caller, counted, aliases: result.aliases, receivedAt };
    if (status === 304) {
      send(req, res, entry, 304, { ...headers, ...extra }, undefined);
      return;
    }
    send(req, res, entry, status, { ...headers, ...extra }, body);
  };

  /**
   * GitHub's secondary-limit answer: 403 (or 429) with its message, `retry-after`, and the
   * primary quota's headers as they are (not 0: that is how a client tells the two apart).
   */
  const secondaryRefusal = (
    caller: Caller,
    resource: RateResource,
    requestId: string,
    retryAfterS: number,
    status: 403 | 429,
  ) => ({
    status,
    body: restError(
      `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
      DOCS.secondaryRateLimit,
      status,
    ),
    headers: {
      'retry-after': String(retryAfterS),
      ...rateLimitHeaders(ledger.peek(caller, resource), resource),
    } as OutgoingHttpHeaders,
  });

  /** A 403/429 when a secondary (or, with `primary`, a primary) limit applies, else undefined. */
  const rateLimitRefusal = (
    caller: Caller,
    resource: RateResource,
    nowMs: number,
    requestId: string,
    address: string,
    primary: boolean,
  ): { status: number; body: JsonValue; headers: OutgoingHttpHeaders } | undefined => {
    const secondary = faults.activeSecondaryLimit(nowMs);
    if (secondary) {
      const retryAfterS = Math.max(1, Math.ceil((secondary.untilMs - nowMs) / 1000));
      return secondaryRefusal(caller, resource, requestId, retryAfterS, secondary.status);
    }
    if (!primary) {
      return undefined;
    }
    const injected = faults.activePrimaryLimit(resource, nowMs);
    const quota = ledger.peek(caller, resource);
    if (!injected && quota.remaining > 0) {
      return undefined;
    }
    const status = injected?.status ?? 403;
    const values = injected
      ? { limit: quota.limit, used: quota.limit, remaining: 0, reset: injected.untilEpochS }
      : quota;
    const body =
      caller.kind === 'anonymous'
        ? {
            message: `API rate limit exceeded for ${address}. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)`,
            documentation_url: DOCS.anonymousRateLimit,
          }
        : restError(
            `API rate limit exceeded for user ID ${tokenOwnerAccount(caller.token).id}. If you reach out to GitHub Support for help, please include the request ID ${requestId} and timestamp ${new Date(
              nowMs,
            )
              .toISOString()
              .replace('T', ' ')
              .replace(/\.\d+Z$/, ' UTC')}.`,
            DOCS.primaryRateLimit,
            status,
          );
    return { status, body, headers: rateLimitHeaders(values, resource) };
  };

  /** The ledger's values, or remaining 0 while an injected primary limit is on. */
  const quotaFor = (caller: Caller, resource: RateResource, nowMs: number): RateLimitValues => {
    const quota = ledger.peek(caller, resource);
    const injected = faults.activePrimaryLimit(resource, nowMs);
    return injected
      ? { limit: quota.limit, used: quota.limit, remaining: 0, reset: injected.untilEpochS }
      : quota;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the double must show up as a 500 in the test, not as an unhandled rejection.
      console.error('GitHub double: request failed', error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      }
      res.end(JSON.stringify({ message: 'Server Error' }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  const inject: FaultInjector = {
    latency: (ms) => {
      faults.latencyMs = ms;
    },
    serverErrors: (count, status = 502) => {
      faults.serverErrorsLeft = count;
      faults.serverErrorStatus = status;
    },
    rateLimit: ({ resource = 'core', untilEpochS, status = 403 }) => {
      faults.primaryLimit = { resource, untilEpochS, status };
    },
    secondaryLimitFor: (requests, retryAfterS) => {
      faults.secondaryRefusalsLeft = requests;
      faults.secondaryRefusalRetryAfterS = retryAfterS;
    },
    secondaryLimit: (retryAfterS, limitOptions = {}) => {
      faults.secondaryLimit = {
        untilMs: Date.now() + retryAfterS * 1000,
        status: limitOptions.status ?? 403,
      };
    },
    hang: () => {
      faults.hanging = true;
    },
    hugeBody: (bytes = 64 * 1024 * 1024) => {
      faults.transport = { kind: 'huge-body', bytes };
    },
    slowDrip: (intervalMs = 200) => {
      faults.transport = { kind: 'slow-drip', intervalMs };
    },
    resetConnection: () => {
      faults.transport = { kind: 'reset' };
    },
    graphqlTooLarge: (maxAliases) => {
      faults.graphqlMaxAliases = maxAliases;
    },
    graphqlTime: (msPerConnection, limitMs) => {
      faults.graphqlTime = { msPerConnection, limitMs: limitMs ?? faults.graphqlTime.limitMs };
    },
    clear: () => {
      faults.reset();
      const resumed = hungRequests;
      hungRequests = [];
      for (const resume of resumed) {
        resume();
      }
    },
  };

  self = {
    url: baseUrl,
    get snapshot() {
      return directory.snapshot;
    },
    counts: log,
    get requests() {
      return log.records;
    },
    inject,
    resetCounts: () => log.reset(),
    secondary: {
      limits: secondaryLimits.limits,
      rejections: (caller) => secondaryLimits.rejections(caller),
      peakConcurrency: (caller) => secondaryLimits.peakConcurrency(caller),
      pointsInWindow: (kind, caller) => secondaryLimits.pointsInWindow(kind, caller),
      peakPointsInWindow: (kind, caller) => secondaryLimits.peakPointsInWindow(kind, caller),
    },
    reset: () => {
      inject.clear();
      log.reset();
      secondaryLimits.reset();
      ledger.reset();
      directory.resetChanges();
      directory.snapshot = snapshot;
      revokedTokens.clear();
    },
    setSnapshot: (date) => {
      getCatalogue(date);
      directory.snapshot = date;
    },
    grantPrivateAccess: (token) => directory.grantPrivateAccess(token),
    removeRepository: (fullName) => directory.remove(fullName),
    restoreRepository: (fullName) => directory.restore(fullName),
    renameRepository: (fullName, newFullName) => directory.rename(fullName, newFullName),
    revokeToken: (token) => {
      revokedTokens.add(token);
    },
    getRepository: (fullName) => directory.lookup(fullName),
    releases: {
      publish: (fullName, release) => directory.releases.publish(requireRepository(fullName), release),
      delete: (fullName, tag) => directory.releases.delete(requireRepository(fullName), tag),
      pushTag: (fullName, tag) => directory.releases.tag(requireRepository(fullName), tag),
      list: (fullName, withDrafts = false) =>
        directory.releases.releases(requireRepository(fullName), withDrafts),
      tags: (fullName) => directory.releases.tags(requireRepository(fullName)).map((tag) => tag.name),
      style: (fullName) => releaseStyleOf(requireRepository(fullName)),
    },
    addAdvisory: (advisory) => directory.advisories.add(advisory),
    withdrawAdvisory: (ghsaId) => directory.advisories.withdraw(ghsaId),
    listAdvisories: () => directory.advisories.list(directory.snapshot),
    quota: (token, resource = 'core') =>
      ledger.peek(token ? { kind: 'token', token } : { kind: 'anonymous' }, resource),
    resetQuota: () => ledger.reset(),
    close: () => {
      if (!closing) {
        closed = true;
        hungRequests = [];
        for (const timer of timers) {
          clearTimeout(timer);
        }
        timers.clear();
        closing = new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive and hung sockets would hold close() open forever.
          server.closeAllConnections();
        });
      }
      return closing;
    },
  };
  return self;
}

function matchRoute(
  method: string,
  pathname: string,
): { route: DoubleRoute; params: Record<string, string> } | undefined {
  for (const route of REST_ROUTES) {
    if (route.method !== method) {
      continue;
    }
    const found = route.pattern.exec(pathname);
    if (found) {
      return { route, params: { ...found.groups } };
    }
  }
  return undefined;
}

/** `Authorization: token X` or `Bearer X`; anything else is anonymous. */
/** Whom a secondary limit counts against: the token, or every anonymous caller together. */
function secondaryCaller(caller: Caller): string {
  return caller.kind === 'token' ? caller.token : 'anonymous';
}

export function parseCaller(authorization: string | undefined): Caller {
  const found = /^(?:token|bearer)\s+(\S+)\s*$/i.exec(authorization ?? '');
  return found?.[1] ? { kind: 'token', token: found[1] } : { kind: 'anonymous' };
}

function remoteAddress(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

function json(body: JsonValue | undefined): string | undefined {
  return body === undefined ? undefined : JSON.stringify(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `[ "xxxx…", … ]` of about `bytes`, chunked, as fast as the socket drains; stops when the client goes. */
function sendHugeBody(res: ServerResponse, headers: OutgoingHttpHeaders, bytes: number): void {
  const { 'content-length': _length, etag: _etag, ...rest } = headers;
  res.writeHead(200, { ...rest, 'content-type': 'application/json; charset=utf-8' });
  const chunk = Buffer.from(`"${'x'.repeat(64 * 1024 - 4)}",`);
  let sent = 0;
  const pump = () => {
    if (sent === 0) res.write('[');
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end('"end"]');
  };
  pump();
}

/** The real answer, one byte every `intervalMs`; stops when the client goes. */
function drip(
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string,
  intervalMs: number,
) {
  res.writeHead(status, headers);
  const bytes = Buffer.from(body);
  let offset = 0;
  const timer = setInterval(() => {
    if (res.destroyed || offset >= bytes.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(bytes.subarray(offset, offset + 1));
    offset += 1;
  }, intervalMs);
  res.on('close', () => clearInterval(timer));
}
