import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from '#shared/schemas/errors.ts';
import { healthResponseSchema, versionResponseSchema } from '#shared/schemas/system.ts';
import { createTestApp, type TestApp } from '../test/helpers/test-app.ts';
import { accessLevels } from './plugins/access.ts';

const echoBodySchema = z.object({
  name: z.string().min(3, 'Name must be at least 3 characters'),
  count: z.number().int().optional(),
});

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { GIT_COMMIT: '0123456789abcdef0123456789abcdef01234567' },
    {
      extend(app) {
        // Test-only routes exercising the shared request and error plumbing.
        app.post(
          '/api/test-echo',
          { config: { access: 'public' }, schema: { body: echoBodySchema } },
          async (request) => ({
            received: request.body,
          }),
        );
        app.get('/api/test-crash', { config: { access: 'public' } }, async () => {
          await sql`select * from table_that_does_not_exist`.execute(app.db);
        });
        app.get('/api/test-private', { config: { access: 'user' } }, async () => ({ secret: true }));
      },
    },
  );
});

afterAll(async () => {
  await t?.close();
});

describe('system calls', () => {
  it('GET /health reports the database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    const body = healthResponseSchema.parse(response.json());
    expect(body).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('GET /version answers the version info with the configured commit', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/version' });
    expect(versionResponseSchema.parse(response.json())).toEqual({
      app_name: 'Repository Tracker',
      api_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      git_commit: '0123456789abcdef0123456789abcdef01234567',
      badges: false,
      public_pages: false,
    });
  });

  it('answers with and without a trailing slash', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/version/' });
    expect(response.statusCode).toBe(200);
  });

  it('ran the migrations at boot', async () => {
    const tables = await t.app.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['job_leases', 'audit_log']));
  });
});

describe('error bodies', () => {
  it('unknown API paths answer a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/repositories/nothing/here/at/all' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(errorBodySchema.parse(response.json())).toMatchObject({ code: 'not_found' });
  });

  it('malformed JSON is a 400 with a readable message', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Request body is not valid JSON', code: 'bad_request' });
  });

  it('schema violations are a 400 naming each field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      payload: { name: 'ab', count: 1.5 },
    });
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.code).toBe('validation_failed');
    expect(body.message).toBe('Name must be at least 3 characters');
    expect(body.fields).toMatchObject({
      name: 'Name must be at least 3 characters',
      count: expect.any(String),
    });
  });

  it('an empty body with a JSON content type counts as {}', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    // {} reaches validation (so the missing field is named) instead of failing as bad JSON.
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('name');
  });

  it('a valid body reaches the handler', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test-echo', payload: { name: 'abc' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { name: 'abc' } });
  });

  it('rejects prototype poisoning', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"abc","__proto__":{"is_admin":true}}',
    });
    expect(response.statusCode).toBe(400);
  });

  it('a body over 1 MiB is a 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      payload: { name: 'x'.repeat(1024 * 1024) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('a wrong content type is a 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=abc',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('a 5xx is generic, carries request_id and leaks no internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test-crash' });
    expect(response.statusCode).toBe(500);
    const body = errorBodySchema.parse(response.json());
    expect(body.code).toBe('internal_error');
    expect(body.request_id).toBe(response.headers['x-request-id']);
    expect(response.body).not.toMatch(/table_that_does_not_exist|sqlite|relation|stack/i);
  });

  it('a user route without credentials is a 401 in the same body', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test-private' });
    expect(response.statusCode).toBe(401);
    expect(errorBodySchema.parse(response.json()).code).toBe('unauthorized');
  });
});

describe('security headers', () => {
  it('sets a strict CSP and no-store on API answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('does not reflect arbitrary origins', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/health',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('route access declarations', () => {
  it('every route declares public, user or admin', () => {
    expect(t.app.routeAccess.length).toBeGreaterThan(4);
    for (const route of t.app.routeAccess) {
      expect(accessLevels, `${route.method} ${route.url}`).toContain(route.access);
    }
    const byUrl = new Map(t.app.routeAccess.map((route) => [`${route.method} ${route.url}`, route.access]));
    expect(byUrl.get('GET /health')).toBe('public');
    expect(byUrl.get('GET /version')).toBe('public');
    expect(byUrl.get('GET /api/test-private')).toBe('user');
  });

  it('refuses to boot with a route that declares nothing', async () => {
    await expect(
      createTestApp(
        {},
        {
          extend(app) {
            app.get('/api/undeclared', async () => ({}));
          },
        },
      ),
    ).rejects.toThrow(/declares no access level/);
  });
});

describe('OpenAPI at /docs', () => {
  it('is generated from the zod schemas', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/version']));
    expect(doc.components.schemas.VersionInfo.properties).toHaveProperty('git_commit');
  });

  it('serves the documentation UI', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('the built web app', () => {
  it('serves index.html at / and caches hashed assets', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'rt-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>t</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    const web = await createTestApp({}, { webDistDir: dist });
    try {
      const page = await web.app.inject({ method: 'GET', url: '/' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['cache-control']).toBe('no-cache');
      const asset = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      const missing = await web.app.inject({ method: 'GET', url: '/auth/unknown' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await web.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
