import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
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
  is_admin: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route. Required on every route: boot fails without it. */
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route with its declared access, for the authorization matrix tests and docs. */
    routeAccess: { method: string; url: string; access: Access }[];
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
  const table: { method: string; url: string; access: Access }[] = [];
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
    for (const method of [route.method].flat()) table.push({ method, url: route.url, access: level });
    if (level === 'public') return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [requireAccess(level), ...existing];
  });
}

function requireAccess(level: Exclude<Access, 'public'>) {
  return async function checkAccess(this: FastifyInstance, request: FastifyRequest) {
    if (level === 'metrics' && isMetricsToken(request, this.config?.metricsToken)) return;
    if (!this.authenticate) throw unauthorized();
    const user = await this.authenticate(request);
    request.user = user;
    if ((level === 'admin' || level === 'metrics') && !user.is_admin) throw forbidden();
  };
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
