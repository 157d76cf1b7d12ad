import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../test/helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../test/helpers/test-app.ts';

/**
 * docs/security.md#d1: every route of the table × who calls it. Generated from `app.routeAccess`,
 * so a new route is covered the moment it is registered.
 */
/** The scraper's token (access level `metrics`): it opens `GET /metrics` and nothing else. */
const METRICS_TOKEN = 'matrix-metrics-token-0123456789abcdef0123456789';
let t: TestApp;
let member: Awaited<ReturnType<typeof signedInUser>>;
let deactivated: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN });
  member = await signedInUser(t.app);
  deactivated = await signedInUser(t.app);
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
});
