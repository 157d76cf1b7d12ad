import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenScope } from '#shared/schemas/api-tokens.ts';
import { signedInUser } from '../test/helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../test/helpers/test-app.ts';
import { API_TOKEN_REFUSALS } from './plugins/access.ts';

/**
 * docs/security.md#d1: every route of the table × who calls it. Generated from `app.routeAccess`,
 * so a new route is covered the moment it is registered.
 */
/** The scraper's token (access level `metrics`): it opens `GET /metrics` and nothing else. */
const METRICS_TOKEN = 'matrix-metrics-token-0123456789abcdef0123456789';
let t: TestApp;
let member: Awaited<ReturnType<typeof signedInUser>>;
let deactivated: Awaited<ReturnType<typeof signedInUser>>;
/** Personal API tokens (docs/security.md#c8): a member's of each scope, an admin's, a deactivated member's. */
const apiTokens = {} as Record<'read' | 'write' | 'adminsWrite' | 'admin' | 'deactivated', string>;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN });
  member = await signedInUser(t.app);
  deactivated = await signedInUser(t.app);
  const admin = await signedInUser(t.app, { is_admin: true });
  const token = async (id: number, isAdmin: boolean, scope: ApiTokenScope) =>
    (await t.app.services.apiTokens.create(id, isAdmin, { name: scope, scope, expires_in_days: 30 })).token;
  apiTokens.read = await token(member.id, false, 'read');
  apiTokens.write = await token(member.id, false, 'write');
  apiTokens.adminsWrite = await token(admin.id, true, 'write');
  apiTokens.admin = await token(admin.id, true, 'admin');
  apiTokens.deactivated = await token(deactivated.id, false, 'write');
  await t.app.db.updateTable('users').set({ is_active: 0 }).where('id', '=', deactivated.id).execute();
});

afterAll(async () => {
  await t?.close();
});

function concrete(url: string): string {
  return url
    .replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? 'some-owner%2Fsome-repo' : 'x'))
    .replace(/\*$/, 'x');
}

const routes = () =>
  (t?.app.routeAccess ?? []).filter((route) => route.method !== 'HEAD' && !route.url.startsWith('/docs'));

/** The routes one check loops over: an empty list fails, instead of a loop that checked nothing. */
function routesWhere(keep: (route: ReturnType<typeof routes>[number]) => boolean) {
  const chosen = routes().filter(keep);
  expect(chosen.length, 'routes to check').toBeGreaterThan(0);
  return chosen;
}

describe('authorization matrix', () => {
  it('covers the whole API', () => {
    const urls = routes().map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /auth/me',
        'POST /auth/login',
        'GET /repositories/',
        'GET /auth/admin/repositories',
        'GET /metrics',
      ]),
    );
  });

  it('anonymous callers get 401 on every user and admin route', async () => {
    for (const route of routesWhere((candidate) => candidate.access !== 'public')) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        payload: {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('members get 403 on every admin and metrics route', async () => {
    for (const route of routesWhere(
      (candidate) => candidate.access === 'admin' || candidate.access === 'metrics',
    )) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        headers: member.headers,
        payload: {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
  });

  it('METRICS_TOKEN opens the metrics routes and is refused (401) everywhere else', async () => {
    const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
    for (const route of routesWhere((candidate) => candidate.access === 'metrics')) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        headers,
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(200);
    }
    for (const route of routesWhere(
      (candidate) => candidate.access === 'user' || candidate.access === 'admin',
    )) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        headers,
        payload: {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('a deactivated account’s live token opens nothing', async () => {
    for (const route of routesWhere((candidate) => candidate.access !== 'public')) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        headers: deactivated.headers,
        payload: {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('public routes never ask for a token', async () => {
    for (const route of routesWhere((candidate) => candidate.access === 'public' && candidate.url !== '/*')) {
      const response = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        payload: {},
      });
      expect(response.statusCode, `${route.method} ${route.url}`).not.toBe(401);
    }
  });

  describe('personal API tokens', () => {
    const refusals: string[] = Object.values(API_TOKEN_REFUSALS);
    const call = (route: ReturnType<typeof routes>[number], bearer: string) =>
      t.app.inject({
        method: route.method as InjectOptions['method'],
        url: concrete(route.url),
        headers: { authorization: `Bearer ${bearer}` },
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
    const closed = (candidate: ReturnType<typeof routes>[number]) => candidate.access !== 'public';
    const forAdmins = (route: ReturnType<typeof routes>[number]) =>
      route.access === 'admin' || route.access === 'metrics';

    /** What a token of `scope` must get on a route: the refusal's status and message, or through. */
    function expected(route: ReturnType<typeof routes>[number], scope: ApiTokenScope, ownerIsAdmin: boolean) {
      if (!route.apiTokens) return { status: 403, message: API_TOKEN_REFUSALS.sessionOnly };
      // A 'per-call' route (POST /mcp) lets every scope through and refuses each write call itself.
      if (scope === 'read' && route.method !== 'GET' && route.apiTokens !== 'per-call')
        return { status: 403, message: API_TOKEN_REFUSALS.readOnly };
      if (forAdmins(route) && !(scope === 'admin' && ownerIsAdmin))
        return { status: 403, message: undefined };
      return undefined;
    }

    it.each([
      ['read', 'read', false],
      ['write', 'write', false],
      ['adminsWrite', 'write', true],
      ['admin', 'admin', true],
    ] as const)(
      'a %s token gets exactly what its scope allows on every route',
      async (kind, scope, ownerIsAdmin) => {
        for (const route of routesWhere(closed)) {
          const response = await call(route, apiTokens[kind]);
          const label = `${kind}: ${route.method} ${route.url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
          const refusal = expected(route, scope, ownerIsAdmin);
          if (refusal) {
            expect(response.statusCode, label).toBe(refusal.status);
            if (refusal.message) expect(response.json().message, label).toBe(refusal.message);
          } else {
            expect(response.statusCode, label).not.toBe(401);
            if (response.statusCode === 403) {
              expect(refusals, label).not.toContain(response.json().message);
              expect(forAdmins(route), label).toBe(false);
            }
          }
        }
      },
    );

    it('the routes that refuse tokens include every account-security and secret-setting route', () => {
      const refusing = routesWhere((route) => closed(route) && !route.apiTokens).map(
        (route) => `${route.method} ${route.url}`,
      );
      expect(refusing).toEqual(
        expect.arrayContaining([
          'POST /auth/change-password',
          'POST /auth/logout-all',
          'GET /auth/me/tokens',
          'POST /auth/me/tokens',
          'DELETE /auth/me/tokens/:id',
          'PUT /auth/me/github-token',
          'PUT /auth/me/slack-webhook',
          'POST /auth/me/feed-token',
          'POST /auth/me/notifications/channels',
        ]),
      );
      // Under /auth/me only the profile itself is open to tokens.
      const open = routesWhere(
        (route) => closed(route) && route.apiTokens && route.url.startsWith('/auth/me'),
      );
      expect(open.map((route) => `${route.method} ${route.url}`).sort()).toEqual([
        'GET /auth/me',
        'PATCH /auth/me',
      ]);
    });

    it('a deactivated member’s token opens nothing (401)', async () => {
      for (const route of routesWhere(closed)) {
        const response = await call(route, apiTokens.deactivated);
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
      }
    });
  });
});
