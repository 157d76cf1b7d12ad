import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PUBLIC_PAGES_OFF_MESSAGE,
  PUBLISH_PRIVATE_VIEW_MESSAGE,
  publicationSchema,
  publicPageListSchema,
  publicRadarPageSchema,
  publicViewPageSchema,
} from '#shared/schemas/public-pages.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { createTestApp } from '../../../test/helpers/test-app.ts';
import { PUBLIC_PAGE_READS_PER_WINDOW } from './public-pages.routes.ts';
import { PAGE_NOT_FOUND } from './public-pages.service.ts';

/**
 * Public pages (docs/product.md#public-pages), on both databases: off by default; a shared view
 * published with its chosen fields only; private repositories never on the page, its JSON or its
 * Atom, whatever the publisher sees; unpublishing, re-publishing, a view made private and a
 * deactivated owner all end the address; ETag and 304; cacheable, cookie-less, noindex; radar
 * editions with or without rationales; the admin's list.
 */

const OWNER_TOKEN = 'ghp_publicPagesOwnerSeesPri1';
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;
let admin: Member;

const call = (
  who: Member | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who?.headers ?? {}, payload });

beforeAll(async () => {
  t = await createReposTestApp({ SYNC_SCHEDULE: 'off', PUBLIC_PAGES: 'on', PUBLIC_BADGES: 'on' });
  admin = await signedInUser(t.app, { is_admin: true });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const id of ['facebook/react', 'vuejs/core', PRIVATE_REPOSITORY]) {
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
    const tagged = await call(ada, 'PUT', repoPath(id, '/metadata/'), {
      tags: 'frontend',
      notes: id === 'facebook/react' ? 'Our <b>pick</b> for UI' : '',
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
  }
  // Text a page must escape.
  await t.app.db
    .updateTable('repositories')
    .set({ description: 'A library <script>alert(1)</script>' })
    .where('full_name', '=', 'facebook/react')
    .execute();
});
afterAll(async () => {
  await t?.close();
});

async function sharedView(
  who: Member,
  name: string,
  query = 'tags=frontend&added_by=me&sort=name&order=asc',
) {
  const created = await call(who, 'POST', '/views', { name, query, shared: true });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().view.id as number;
}

async function publish(who: Member, viewId: number, fields: string[]) {
  const answer = await call(who, 'POST', `/views/${viewId}/publish`, { fields });
  expect(answer.statusCode, answer.body).toBe(201);
  const publication = publicationSchema.parse(answer.json());
  return { ...publication, path: new URL(publication.url).pathname };
}

describe('a published view', () => {
  it('shows the chosen fields only, and never a private repository the publisher can see', async () => {
    const viewId = await sharedView(ada, 'Frontend picks');
    // The view itself lists the private repository for ada.
    const own = await call(ada, 'GET', '/repositories/?tags=frontend&added_by=me');
    expect(own.json().total).toBe(3);

    const { path, fields } = await publish(ada, viewId, ['stars', 'description']);
    expect(fields).toEqual(['description', 'stars']);
    expect(path).toMatch(/^\/p\/[A-Za-z0-9_-]{43}$/);

    const json = await call(null, 'GET', `${path}.json`);
    expect(json.statusCode).toBe(200);
    const page = publicViewPageSchema.parse(json.json());
    expect(page.title).toBe('Frontend picks');
    expect(page.total).toBe(2);
    // In the view's order: by name (core, react).
    expect(page.repositories.map((repository) => repository.name)).toEqual(['vuejs/core', 'facebook/react']);
    for (const repository of page.repositories)
      expect(Object.keys(repository).sort()).toEqual(['description', 'name', 'stars', 'url']);

    const html = await call(null, 'GET', path);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.body).toContain('facebook/react');
    expect(html.body).not.toContain(PRIVATE_REPOSITORY);
    expect(html.body).not.toContain('<script>');
    expect(html.body).toContain('A library &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.body).not.toContain('Our &lt;b&gt;pick');
    expect(html.body).not.toMatch(/Health|Release|Status/);
    expect(html.body).toContain('<meta name="robots" content="noindex">');
    // No script at all, and a CSP that would refuse one.
    expect(html.body).not.toMatch(/<script|\son\w+=/i);
    expect(html.headers['content-security-policy']).toMatch(/default-src 'none'; style-src 'sha256-/);
    expect(html.headers['x-robots-tag']).toBe('noindex');
    expect(html.headers['cache-control']).toBe('public, max-age=300');
    expect(html.headers['set-cookie']).toBeUndefined();
    expect(Buffer.byteLength(html.body)).toBeLessThan(40_000);

    const atom = await call(null, 'GET', `${path}.atom`);
    expect(atom.statusCode).toBe(200);
    expect(atom.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(atom.body).not.toContain(PRIVATE_REPOSITORY);
  });

  it('notes only when ticked; tags, health, growth, status and release on request', async () => {
    const viewId = await sharedView(ada, 'Everything');
    const { path } = await publish(ada, viewId, ['notes', 'tags', 'health', 'growth', 'status', 'release']);
    const page = publicViewPageSchema.parse((await call(null, 'GET', `${path}.json`)).json());
    const react = page.repositories.find((repository) => repository.name === 'facebook/react');
    expect(react?.notes).toBe('Our <b>pick</b> for UI');
    expect(react?.tags).toEqual(['frontend']);
    expect(react?.health?.grade).toBeDefined();
    expect(react).toHaveProperty('stars_30d');
    expect(react).toHaveProperty('status', null);
    expect(react).toHaveProperty('release', null);
    expect(react).not.toHaveProperty('description');
    const html = (await call(null, 'GET', path)).body;
    expect(html).toContain('Our &lt;b&gt;pick&lt;/b&gt; for UI');
  });

  it('answers 304 to its ETag, and a new ETag when the page changes', async () => {
    const viewId = await sharedView(ada, 'Cached');
    const { path } = await publish(ada, viewId, ['stars']);
    const first = await call(null, 'GET', `${path}.json`);
    const etag = String(first.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: `${path}.json`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const html = await call(null, 'GET', path);
    expect(html.headers.etag).not.toBe(etag);
    await t.app.db
      .updateTable('repositories')
      .set({ stars: 123_456 })
      .where('full_name', '=', 'vuejs/core')
      .execute();
    const changed = await t.app.inject({
      method: 'GET',
      url: `${path}.json`,
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('unpublish, re-publish at a new address, made private, owner deactivated: the old address is 404', async () => {
    const viewId = await sharedView(bob, 'Bob’s', 'tags=frontend');
    const first = await publish(bob, viewId, ['stars']);
    expect((await call(null, 'GET', first.path)).statusCode).toBe(200);
    // Re-published: a new address, the old one gone.
    const second = await publish(bob, viewId, ['stars']);
    expect(second.path).not.toBe(first.path);
    const gone = await call(null, 'GET', first.path);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(PAGE_NOT_FOUND);
    // Unpublished.
    expect((await call(bob, 'DELETE', `/views/${viewId}/publish`)).statusCode).toBe(204);
    expect((await call(null, 'GET', second.path)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/views/${viewId}/publish`)).json()).toEqual({ publication: null });
    // Made private: unpublished, and a private view can't be published.
    const third = await publish(bob, viewId, ['stars']);
    expect((await call(bob, 'PATCH', `/views/${viewId}`, { shared: false })).statusCode).toBe(200);
    expect((await call(null, 'GET', third.path)).statusCode).toBe(404);
    const refused = await call(bob, 'POST', `/views/${viewId}/publish`, { fields: [] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(PUBLISH_PRIVATE_VIEW_MESSAGE);
    // Owner deactivated.
    expect((await call(bob, 'PATCH', `/views/${viewId}`, { shared: true })).statusCode).toBe(200);
    const fourth = await publish(bob, viewId, ['stars']);
    const deactivated = await call(admin, 'PATCH', `/auth/admin/users/${bob.id}`, { is_active: false });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await call(null, 'GET', fourth.path)).statusCode).toBe(404);
    await call(admin, 'PATCH', `/auth/admin/users/${bob.id}`, { is_active: true });
  });

  it('only the owner (or an admin) publishes; another member gets 403; malformed addresses are the same 404', async () => {
    const viewId = await sharedView(ada, 'Ada only');
    // (bob's sessions ended with his deactivation above)
    const carol = await signedInUser(t.app);
    expect((await call(carol, 'POST', `/views/${viewId}/publish`, { fields: [] })).statusCode).toBe(403);
    expect((await call(admin, 'POST', `/views/${viewId}/publish`, { fields: ['stars'] })).statusCode).toBe(
      201,
    );
    expect((await call(ada, 'POST', `/views/${viewId}/publish`, { fields: ['secrets'] })).statusCode).toBe(
      400,
    );
    for (const path of ['/p/short', `/p/${'a'.repeat(43)}.csv`, `/p/${'a'.repeat(43)}`, '/p/radar/nope']) {
      const answer = await call(null, 'GET', path);
      expect(answer.statusCode, path).toBe(404);
      expect(answer.json().message).toBe(PAGE_NOT_FOUND);
    }
  });
});

describe('a published view’s Atom', () => {
  it('carries what GitHub did, never who added what; a private repository’s events never', async () => {
    const viewId = await sharedView(ada, 'Feed');
    const { path } = await publish(ada, viewId, ['stars']);
    const ids = await t.app.db.selectFrom('repositories').select(['id', 'full_name']).execute();
    const now = new Date().toISOString();
    for (const { id, full_name } of ids)
      await t.app.db
        .insertInto('repository_events')
        .values({
          repository_id: id,
          type: 'description_changed',
          occurred_at: now,
          user_id: null,
          data: JSON.stringify({ from: null, to: `New words for ${full_name}` }),
          created_at: now,
        })
        .execute();
    const atom = (await call(null, 'GET', `${path}.atom`)).body;
    expect(atom).toContain('New words for facebook/react');
    expect(atom).toContain(
      '<link rel="alternate" type="text/html" href="https://github.com/facebook/react"/>',
    );
    expect(atom).not.toContain(PRIVATE_REPOSITORY);
    // Adding a repository is a member's act: not on a public feed.
    expect(
      await t.app.db
        .selectFrom('repository_events')
        .select('id')
        .where('type', '=', 'repository_added')
        .execute(),
    ).not.toHaveLength(0);
    expect(atom).not.toContain('repository_added');
    // The feed's own author (the instance) only: no entry names a member.
    expect(atom.match(/<author>/g)).toHaveLength(1);
  });
});

describe('a published radar edition', () => {
  it('lists public entries by quadrant and ring, rationales only when included; admins only', async () => {
    for (const [id, status] of [
      ['facebook/react', 'adopt'],
      [PRIVATE_REPOSITORY, 'trial'],
    ] as const) {
      const decided = await call(ada, 'PUT', repoPath(id, '/decision'), {
        status,
        quadrant: 'libraries',
        rationale: `Why ${id}`,
      });
      expect(decided.statusCode, decided.body).toBe(200);
    }
    const edition = await call(admin, 'POST', '/radar/editions', { name: 'Autumn 2026' });
    expect(edition.statusCode, edition.body).toBe(201);
    const editionId = edition.json().edition.id as number;
    expect((await call(ada, 'POST', `/radar/editions/${editionId}/publish`, {})).statusCode).toBe(403);

    const plain = await call(admin, 'POST', `/radar/editions/${editionId}/publish`, {});
    expect(plain.statusCode, plain.body).toBe(201);
    const path = new URL(publicationSchema.parse(plain.json()).url).pathname;
    expect(path).toMatch(/^\/p\/radar\/[A-Za-z0-9_-]{43}$/);
    const page = publicRadarPageSchema.parse((await call(null, 'GET', `${path}.json`)).json());
    expect(page.blips.map((blip) => [blip.name, blip.ring])).toEqual([['facebook/react', 'adopt']]);
    expect(page.blips[0]).not.toHaveProperty('rationale');
    const html = await call(null, 'GET', path);
    expect(html.body).toContain('Autumn 2026');
    expect(html.body).not.toContain(PRIVATE_REPOSITORY);
    expect(html.body).not.toContain('Why ');

    const withRationales = await call(admin, 'POST', `/radar/editions/${editionId}/publish`, {
      include_rationales: true,
    });
    const newPath = new URL(publicationSchema.parse(withRationales.json()).url).pathname;
    expect((await call(null, 'GET', path)).statusCode).toBe(404);
    const full = publicRadarPageSchema.parse((await call(null, 'GET', `${newPath}.json`)).json());
    expect(full.blips[0]?.rationale).toBe('Why facebook/react');

    // The status badge shows the published ring; a private repository's never (the same 404).
    const badge = await call(null, 'GET', '/badge/facebook/react/status.svg');
    expect(badge.statusCode).toBe(200);
    expect(badge.body).toContain('adopt');
    const [owner, name] = PRIVATE_REPOSITORY.split('/');
    expect((await call(null, 'GET', `/badge/${owner}/${name}/status.svg`)).statusCode).toBe(404);
    // Unpublished: the ring is the team's business again.
    expect((await call(admin, 'DELETE', `/radar/editions/${editionId}/publish`)).statusCode).toBe(204);
    expect((await call(null, 'GET', '/badge/facebook/react/status.svg')).statusCode).toBe(404);
    expect((await call(null, 'GET', `${newPath}.json`)).statusCode).toBe(404);
    await call(admin, 'POST', `/radar/editions/${editionId}/publish`, {});
  });
});

describe('the admin’s list', () => {
  it('shows every page with its publisher, and unpublishes any', async () => {
    expect((await call(ada, 'GET', '/public-pages')).statusCode).toBe(403);
    const list = publicPageListSchema.parse((await call(admin, 'GET', '/public-pages')).json());
    expect(list.pages.length).toBeGreaterThan(2);
    expect(list.pages.some((page) => page.kind === 'radar' && page.title === 'Autumn 2026')).toBe(true);
    expect(list.pages.some((page) => page.kind === 'view' && page.published_by === ada.username)).toBe(true);
    const target = list.pages[0];
    if (!target) throw new Error('no page');
    expect((await call(admin, 'DELETE', `/public-pages/${target.id}`)).statusCode).toBe(204);
    expect((await call(null, 'GET', new URL(target.url).pathname)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `/public-pages/${target.id}`)).statusCode).toBe(404);
  });
});

describe('reading limits and indexing', () => {
  it('reads are limited per address (429 with Retry-After), and another address still reads', async () => {
    const viewId = await sharedView(ada, 'Limited');
    const { path } = await publish(ada, viewId, ['stars']);
    const from = (address: string) =>
      t.app.inject({ method: 'GET', url: `${path}.json`, remoteAddress: address });
    for (let i = 0; i < PUBLIC_PAGE_READS_PER_WINDOW; i++)
      expect((await from('203.0.113.7')).statusCode).toBe(200);
    const limited = await from('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });

  it('PUBLIC_PAGES_INDEX=on lets search engines index the pages', async () => {
    const indexed = await createReposTestApp({
      SYNC_SCHEDULE: 'off',
      PUBLIC_PAGES: 'on',
      PUBLIC_PAGES_INDEX: 'on',
    });
    try {
      const member = await signedInUser(indexed.app);
      const created = await indexed.app.inject({
        method: 'POST',
        url: '/views',
        headers: member.headers,
        payload: { name: 'Open', query: 'sort=name', shared: true },
      });
      const published = await indexed.app.inject({
        method: 'POST',
        url: `/views/${created.json().view.id}/publish`,
        headers: member.headers,
        payload: { fields: [] },
      });
      const page = await indexed.app.inject({ method: 'GET', url: new URL(published.json().url).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.headers['x-robots-tag']).toBeUndefined();
      expect(page.body).not.toContain('noindex');
    } finally {
      await indexed.close();
    }
  });
});

describe('PUBLIC_PAGES=off (the default)', () => {
  it('every public address answers 404 and nothing can be published', async () => {
    const off = await createTestApp();
    try {
      const member = await signedInUser(off.app);
      const created = await off.app.inject({
        method: 'POST',
        url: '/views',
        headers: member.headers,
        payload: { name: 'Mine', query: 'sort=name', shared: true },
      });
      const viewId = created.json().view.id as number;
      const refused = await off.app.inject({
        method: 'POST',
        url: `/views/${viewId}/publish`,
        headers: member.headers,
        payload: { fields: [] },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe(PUBLIC_PAGES_OFF_MESSAGE);
      expect((await off.app.inject({ method: 'GET', url: `/p/${'a'.repeat(43)}` })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/version' })).json().public_pages).toBe(false);
    } finally {
      await off.close();
    }
  });
});
