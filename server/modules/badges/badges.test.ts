import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BADGE_KINDS, OFFERED_BADGE_KINDS } from '#shared/schemas/badges.ts';
import { versionResponseSchema } from '#shared/schemas/system.ts';
import { nextAddress, signedInUser } from '../../../test/helpers/auth-factory.ts';
import { insertRepository } from '../../../test/helpers/backup-seed.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { matchesEtag } from '../../lib/etag.ts';
import { BADGE_FETCHES_PER_WINDOW } from './badges.routes.ts';

/**
 * Badges (docs/product.md#badges) on whichever database TEST_DB names: off answers 404
 * everywhere; on, a public repository's badges with their caching headers, and a private or
 * missing repository the same 404 byte for byte, whoever asks.
 */

const get = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers, remoteAddress: nextAddress() });

/** What a 404 shows a client: status, body and the headers that aren't per request. */
function fingerprint(response: LightMyRequestResponse) {
  const { date: _date, 'x-request-id': _id, ...headers } = response.headers;
  return { status: response.statusCode, body: response.body, headers };
}

describe('PUBLIC_BADGES=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await insertRepository(t.app, { user_id: null, full_name: 'open/widget', stars: 12_345 });
  });
  afterAll(() => t.close());

  it('answers every kind of every repository 404, as a missing one', async () => {
    const missing = fingerprint(await get(t, '/badge/nobody/nothing/stars.svg'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ message: 'Badge not found', code: 'not_found' });
    for (const kind of BADGE_KINDS) {
      expect(fingerprint(await get(t, `/badge/open/widget/${kind}.svg`))).toEqual(missing);
    }
  });

  it('says so on GET /version, for the detail page', async () => {
    const version = versionResponseSchema.parse((await get(t, '/version')).json());
    expect(version.badges).toBe(false);
  });
});

describe('PUBLIC_BADGES=on', () => {
  let t: TestApp;
  let widgetId: number;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_BADGES: 'on' });
    const widget = await insertRepository(t.app, { user_id: null, full_name: 'open/widget', stars: 12_345 });
    widgetId = widget.id;
    await t.app.db
      .updateTable('repositories')
      .set({
        stars_30d: 1234,
        health_score: 87,
        health_grade: 'healthy',
        advisories_high: 2,
        advisories_low: 1,
        advisory_level: 4,
      })
      .where('id', '=', widget.id)
      .execute();
    await t.app.db
      .insertInto('repository_aliases')
      .values({ full_name_lower: 'open/old-widget', repository_id: widget.id })
      .execute();
    for (const [number, day] of [
      ['v1.2.3', '2026-10-01'],
      ['v1.1.0', '2026-09-01'],
    ] as const) {
      await t.app.db
        .insertInto('versions')
        .values({
          repository_id: widget.id,
          user_id: null,
          version_number: number,
          release_date: day,
          description: null,
          snapshot: '{}',
          created_at: '2026-11-01T00:00:00.000Z',
        })
        .execute();
    }
    await insertRepository(t.app, { user_id: null, full_name: 'open/quiet', stars: 7 });
    const secret = await insertRepository(t.app, {
      user_id: null,
      full_name: 'team/secret',
      stars: 999,
      private: 1,
    });
    await t.app.db
      .insertInto('repository_aliases')
      .values({ full_name_lower: 'team/old-secret', repository_id: secret.id })
      .execute();
  });
  afterAll(() => t.close());

  it('draws a public repository’s stars as a cacheable SVG, with no cookie and no script', async () => {
    const response = await get(t, '/badge/open/widget/stars.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.body).toMatch(/^<svg /);
    expect(response.body).toContain('stars: 12.3k');
    expect(response.body).not.toMatch(/<script/i);
  });

  it.each([
    ['growth', 'stars/30d: +1.2k'],
    ['health', 'health: healthy 87'],
    ['release', 'release: v1.2.3'],
    ['advisories', 'advisories: 2 high +1'],
  ])('draws %s', async (kind, text) => {
    const response = await get(t, `/badge/open/widget/${kind}.svg`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`aria-label="${text}"`);
  });

  it.each([
    ['growth', 'stars/30d: n/a'],
    ['health', 'health: unknown'],
    ['release', 'release: none'],
    ['advisories', 'advisories: none'],
  ])('draws %s of a repository with nothing to show', async (kind, text) => {
    const response = await get(t, `/badge/open/quiet/${kind}.svg`);
    expect(response.body).toContain(`aria-label="${text}"`);
  });

  it('follows a former name, in any case', async () => {
    const response = await get(t, '/badge/Open/Old-Widget/stars.svg');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('stars: 12.3k');
  });

  it('answers a private repository exactly as a missing one, by name or former name, whoever asks', async () => {
    // An admin may see the private repository in the app; a badge still never shows it.
    const admin = await signedInUser(t.app, { is_admin: true });
    const missing = fingerprint(await get(t, '/badge/team/nothing/stars.svg'));
    expect(missing.status).toBe(404);
    for (const kind of BADGE_KINDS) {
      for (const name of ['team/secret', 'TEAM/SECRET', 'team/old-secret']) {
        for (const headers of [admin.headers, { authorization: 'Bearer not-a-token', cookie: 'a=b' }]) {
          const response = await get(t, `/badge/${name}/${kind}.svg`, headers);
          expect(fingerprint(response)).toEqual(missing);
          expect(response.body).not.toContain('999');
        }
      }
    }
  });

  it('answers status 404 while no published radar edition holds the repository (public-pages.test.ts: once one does)', async () => {
    const missing = fingerprint(await get(t, '/badge/nobody/nothing/status.svg'));
    expect(fingerprint(await get(t, '/badge/open/widget/status.svg'))).toEqual(missing);
  });

  it('answers 304 to its own ETag, weak or strong, alone or in a list', async () => {
    const first = await get(t, '/badge/open/widget/health.svg');
    const etag = String(first.headers.etag);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(t, '/badge/open/widget/health.svg', { 'if-none-match': header });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=3600');
    }
    const changed = await get(t, '/badge/open/widget/health.svg', { 'if-none-match': '"stale"' });
    expect(changed.statusCode).toBe(200);
    await t.app.db.updateTable('repositories').set({ health_score: 61 }).where('id', '=', widgetId).execute();
    const moved = await get(t, '/badge/open/widget/health.svg', { 'if-none-match': etag });
    expect(moved.statusCode).toBe(200);
    expect(moved.headers.etag).not.toBe(etag);
    await t.app.db.updateTable('repositories').set({ health_score: 87 }).where('id', '=', widgetId).execute();
  });

  it('takes a style and a label, escaped; a bad style, label or name is 400', async () => {
    const styled = await get(t, '/badge/open/widget/stars.svg?style=for-the-badge&label=%3Cb%3E%26stars');
    expect(styled.statusCode).toBe(200);
    expect(styled.body).toContain('&lt;B&gt;&amp;STARS');
    expect(styled.body).not.toContain('<b>');
    const flat = (await get(t, '/badge/open/widget/stars.svg')).headers.etag;
    const square = (await get(t, '/badge/open/widget/stars.svg?style=flat-square')).headers.etag;
    expect(square).not.toBe(flat);

    const badStyle = await get(t, '/badge/open/widget/stars.svg?style=plastic');
    expect(badStyle.statusCode).toBe(400);
    expect(badStyle.json().message).toBe('The style must be one of flat, flat-square, for-the-badge');
    const longLabel = await get(t, `/badge/open/widget/stars.svg?label=${'x'.repeat(41)}`);
    expect(longLabel.statusCode).toBe(400);
    expect(longLabel.json().message).toBe('The label must be at most 40 characters');
    const badKind = await get(t, '/badge/open/widget/forks.svg');
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toContain('stars.svg, growth.svg');
    expect((await get(t, '/badge/open/wid%20get/stars.svg')).statusCode).toBe(400);
  });

  it('says badges are on in GET /version', async () => {
    expect(versionResponseSchema.parse((await get(t, '/version')).json()).badges).toBe(true);
  });

  it('limits badge fetches per client address', async () => {
    const remoteAddress = nextAddress();
    let last = 0;
    for (let i = 0; i <= BADGE_FETCHES_PER_WINDOW; i++) {
      const response = await t.app.inject({ method: 'GET', url: '/badge/a/b/status.svg', remoteAddress });
      last = response.statusCode;
    }
    expect(last).toBe(429);
  });

  it('is in the OpenAPI description as image/svg+xml', async () => {
    const doc = (await get(t, '/docs/json')).json();
    const operation = doc.paths['/badge/{owner}/{name}/{kind}.svg'].get;
    expect(Object.keys(operation.responses['200'].content)).toEqual(['image/svg+xml']);
    expect(OFFERED_BADGE_KINDS).not.toContain('status');
  });
});

describe('matchesEtag', () => {
  it('reads If-None-Match lists', () => {
    expect(matchesEtag(undefined, '"a"')).toBe(false);
    expect(matchesEtag('"b", W/"a"', '"a"')).toBe(true);
    expect(matchesEtag('"b"', '"a"')).toBe(false);
  });
});
