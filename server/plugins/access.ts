import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiTokenScope } from '#shared/schemas/api-tokens.ts';
import { forbidden, unauthorized } from '../lib/app-error.ts';

/** Decorator that marks an encapsulated context whose plugin routes are public. */
const PUBLIC_BY_DEFAULT = 'routesArePublicByDefault';

/**
 * `metrics`: an admin's bearer token, or the METRICS_TOKEN a Prometheus scraper is given
 * (docs/security.md#d1) — a scraper needs no account, and its token opens nothing else.
 */
export const accessLevels = ['public', 'user', 'admin', 'metrics'] as const;
export type Access = (typeof accessLevels)[number];

/** The signed-in caller as the access check sees it; the auth module fills in the rest. */
export interface RequestUser {
  id: number;
  /** For a personal API token: the owner is an admin now and the token's scope is `admin`. */
  is_admin: boolean;
  /** Set when the caller came with a personal API token instead of a session. */
  apiToken?: { id: number; scope: ApiTokenScope };
}

/** Why a personal API token was refused (403) on a route it may not call (docs/security.md#c8). */
export const API_TOKEN_REFUSALS = {
  sessionOnly:
    'API tokens can’t be used for account security or secrets: sign in to change passwords, tokens, sessions, the GitHub token, webhooks or notification channels.',
  readOnly: 'This API token is read-only: it may only send GET and HEAD requests.',
} as const;

/**
 * `config.apiTokens`: `true` (within the scope: `read` sends GET and HEAD only), `false` (never),
 * or `'per-call'`: every scope reaches the route, which checks the scope of each call itself —
 * the MCP server, whose reads and writes all arrive as POST (docs/mcp.md#scopes).
 */
export type ApiTokenRule = boolean | 'per-call';

/** A route as the authorization matrix sees it: its access level and whether API tokens may call it. */
export interface RouteAccess {
  method: string;
  url: string;
  access: Access;
  /** `'per-call'`: a `read` token is let through any method; the route checks each call (ApiTokenRule). */
  apiTokens: boolean | 'per-call';
}

/** Routes under this prefix must say whether API tokens may call them: boot fails otherwise. */
const ACCOUNT_PREFIX = '/auth/me';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route. Required on every route: boot fails without it. */
    access?: Access;
    /**
     * Whether personal API tokens may call the route (default: yes, within their scope). `false`
     * on account-security and secret-setting routes; every `user` or `admin` route under
     * `/auth/me` must say, so a new one can't forget it (boot fails otherwise). `'per-call'`:
     * see ApiTokenRule.
     */
    apiTokens?: ApiTokenRule;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the authorization matrix tests and docs. */
    routeAccess: RouteAccess[];
    /** Resolves the bearer token of a request to its user, or throws 401. Provided by the auth module. */
    authenticate?: (request: FastifyRequest) => Promise<RequestUser>;
  }
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

/**
 * Every route declares who may call it in `config.access` (docs/security.md#d1). A route without a
 * declaration is a boot error, so nothing is reachable by accident; `user` and `admin` routes
 * get an authentication hook before any body parsing or handler runs.
 */
async function access(app: FastifyInstance) {
  app.decorateRequest('user', null);
  const table: RouteAccess[] = [];
  app.decorate('routeAccess', table);
  app.addHook('onRoute', function checkDeclaration(this: FastifyInstance, route: RouteOptions) {
    if (!route.config?.access && this.hasDecorator(PUBLIC_BY_DEFAULT)) {
      route.config = { ...route.config, access: 'public' };
    }
    const level = route.config?.access;
    if (!level || !accessLevels.includes(level)) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} declares no access level (public, user, admin or metrics)`,
      );
    }
    const apiTokens = route.config?.apiTokens;
    const underAccount = route.url === ACCOUNT_PREFIX || route.url.startsWith(`${ACCOUNT_PREFIX}/`);
    for (const method of [route.method].flat()) {
      table.push({
        method,
        url: route.url,
        access: level,
        apiTokens: level === 'public' ? false : apiTokens === 'per-call' ? 'per-call' : apiTokens !== false,
      });
    }
    if (level === 'public') return;
    if (underAccount && typeof apiTokens !== 'boolean') {
      throw new Error(
        `Route ${String(route.method)} ${route.url} is under ${ACCOUNT_PREFIX} and must declare config.apiTokens (true or false)`,
      );
    }
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [requireAccess(level, apiTokens ?? true), ...existing];
  });
}

function requireAccess(level: Exclude<Access, 'public'>, apiTokens: ApiTokenRule) {
  return async function checkAccess(this: FastifyInstance, request: FastifyRequest) {
    if (level === 'metrics' && isMetricsToken(request, this.config?.metricsToken)) return;
    if (!this.authenticate) throw unauthorized();
    const user = await this.authenticate(request);
    request.user = user;
    if (user.apiToken) checkApiTokenScope(user.apiToken.scope, request.method, apiTokens);
    if ((level === 'admin' || level === 'metrics') && !user.is_admin) throw forbidden();
  };
}

/**
 * A personal API token's scope against the route (docs/security.md#c8): never the routes that
 * refuse tokens, `read` only GET and HEAD (but on a `'per-call'` route, which checks each call).
 * Admin routes need `is_admin`, which the auth plugin sets for a token only when its scope is
 * `admin` and its owner is an admin now.
 */
function checkApiTokenScope(scope: ApiTokenScope, method: string, rule: ApiTokenRule) {
  if (rule === false) throw forbidden(API_TOKEN_REFUSALS.sessionOnly);
  if (rule === 'per-call') return;
  if (scope === 'read' && method !== 'GET' && method !== 'HEAD') throw forbidden(API_TOKEN_REFUSALS.readOnly);
}

/**
 * Whether the bearer token is the configured METRICS_TOKEN. Compared as SHA-256 digests in
 * constant time, so neither the token's content nor its length leaks through timing.
 */
function isMetricsToken(request: FastifyRequest, metricsToken: string | undefined): boolean {
  if (!metricsToken) return false;
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^Bearer /i.test(header)) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(header.slice('Bearer '.length).trim()), digest(metricsToken));
}

/**
 * The caller of a `user` or `admin` route: the access check has set it before any handler or
 * `preHandler` runs, so this only throws (401) when called from a `public` route by mistake.
 * The one way a route learns who is calling.
 */
export function requireUser(request: FastifyRequest): RequestUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Declares every route registered in this encapsulated context (and below) public unless it
 * says otherwise: for third-party plugins whose routes can't carry our config (documentation
 * UI, static files). Call it inside the `register` callback that wraps them.
 */
export function declarePublicRoutes(app: FastifyInstance) {
  app.decorate(PUBLIC_BY_DEFAULT, true);
}

export default fp(access, { name: 'access' });
