import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { insertEvents } from './events.queries.ts';

/**
 * The Atom feed (docs/product.md#activity-feed): valid Atom 1.0 read back with a real XML parser,
 * the token owner's visibility, the tag filter, the token's life (shown once, regenerated,
 * revoked: 401 without a hint) and a token that never reaches the log, even at trace level.
 */
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let owner: Member;
let outsider: Member;
const OWNER_TOKEN = 'ghp_ownerReadsPrivateFeed0001';
const logLines: string[] = [];
/** Everything a hostile description could hold: markup, entities, quotes and control characters. */
const NASTY = 'Fast & <b>"bold"</b> \'parsers\' ]]> \u0001\u0008 done';

beforeAll(async () => {
  t = await createReposTestApp(
    { LOG_LEVEL: 'trace', PUBLIC_URL: 'https://tracker.example.org' },
    {},
    { logStream: { write: (line: string) => void logLines.push(line) } },
  );
  owner = await signedInUser(t.app, { first_name: 'Grace', last_name: 'Hopper' });
  outsider = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(owner, '/auth/me/github-token', 'PUT', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const name of ['pallets/flask', PRIVATE_REPOSITORY]) {
    expect((await call(owner, '/repositories/', 'POST', { id: name })).statusCode).toBe(201);
  }
  await call(owner, repoPath('pallets/flask', '/metadata/'), 'PUT', { tags: 'python' });
  const flask = await t.app.db
    .selectFrom('repositories')
    .select('id')
    .where('full_name', '=', 'pallets/flask')
    .executeTakeFirstOrThrow();
  await insertEvents(
    t.app.db,
    [{ type: 'description_changed', repository_id: flask.id, data: { from: null, to: NASTY } }],
    new Date().toISOString(),
  );
});

afterAll(async () => {
  await t?.close();
});

function call(who: Member, url: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'GET', payload?: object) {
  return t.app.inject({ method, url, headers: who.headers, payload });
}

async function newToken(who: Member) {
  const response = await call(who, '/auth/me/feed-token', 'POST');
  expect(response.statusCode).toBe(200);
  return response.json() as { token: string; feed_url: string; created_at: string };
}

const fetchFeed = (query: string) => t.app.inject({ method: 'GET', url: `/feeds/activity.atom${query}` });
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'entry' || name === 'link',
});

type AtomLink = { '@rel'?: string; '@href': string };
type AtomEntry = {
  id: string;
  title: string;
  updated: string;
  link: AtomLink[];
  content: { '#text': string };
};

function parseFeed(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const document = parser.parse(xml) as { feed: Record<string, unknown> & { entry?: AtomEntry[] } };
  return document.feed;
}

describe('the feed token', () => {
  it('is created on request, shown once with the whole feed address, and stored only hashed', async () => {
    expect((await call(owner, '/auth/me/feed-token')).json()).toEqual({
      exists: false,
      created_at: null,
      last_used_at: null,
    });
    const created = await newToken(owner);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.feed_url).toBe(`https://tracker.example.org/feeds/activity.atom?token=${created.token}`);
    const stored = await t.app.db.selectFrom('feed_tokens').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(created.token);
    expect((await call(owner, '/auth/me/feed-token')).json()).toMatchObject({
      exists: true,
      last_used_at: null,
    });
  });

  it('a wrong, revoked or replaced token: 401 with the error body and no hint which', async () => {
    const first = await newToken(outsider);
    const second = await newToken(outsider);
    const expected = {
      message: 'This feed address is not valid (its token may have been revoked).',
      code: 'unauthorized',
    };
    expect((await fetchFeed(`?token=${first.token}`)).json()).toEqual(expected);
    expect((await fetchFeed(`?token=${second.token}`)).statusCode).toBe(200);
    expect((await call(outsider, '/auth/me/feed-token', 'DELETE')).json()).toMatchObject({ exists: false });
    for (const query of [`?token=${second.token}`, '?token=nonsense']) {
      const response = await fetchFeed(query);
      expect(response.statusCode, query).toBe(401);
      expect(response.json(), query).toEqual(expected);
    }
    // No token at all is a malformed address, not a refused one.
    const without = await fetchFeed('?tag=python');
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      code: 'validation_failed',
      fields: { token: expect.any(String) },
    });
  });
});

describe('GET /feeds/activity.atom', () => {
  it('is valid Atom 1.0 with the required elements, escaped text and links to the repositories', async () => {
    const { token } = await newToken(owner);
    const response = await fetchFeed(`?token=${encodeURIComponent(token)}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(response.body).not.toContain(token);
    const feed = parseFeed(response.body);
    expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toBe('tag:tracker.example.org,2026-11-25:activity');
    expect(feed.title).toBe('Repository Tracker: activity');
    expect(Date.parse(String(feed.updated))).not.toBeNaN();
    expect(feed.link).toContainEqual(
      expect.objectContaining({ '@rel': 'self', '@href': 'https://tracker.example.org/feeds/activity.atom' }),
    );
    expect(feed.author).toEqual({ name: 'Repository Tracker' });
    const entries = feed.entry ?? [];
    expect(entries).toHaveLength(3);
    for (const entry of entries) {
      expect(entry.id).toMatch(/^tag:tracker\.example\.org,2026-11-25:event\/\d+$/);
      expect(entry.title).toEqual(expect.any(String));
      expect(Date.parse(entry.updated)).not.toBeNaN();
      expect(entry.link[0]?.['@href']).toMatch(/^https:\/\/tracker\.example\.org\/#\/repo\//);
      expect(entry.content['#text']).toEqual(expect.any(String));
    }
    const [changed, privateAdded, flaskAdded] = entries;
    expect(changed?.title).toBe('pallets/flask got a description');
    // The hostile text comes back exactly, less what XML can't carry at all.
    expect(changed?.content['#text']).toBe(
      `pallets/flask got a description.\n${NASTY.replace('\u0001\u0008', '')}`,
    );
    expect(privateAdded?.title).toBe(`${PRIVATE_REPOSITORY} was added to the catalogue by Grace Hopper`);
    expect(flaskAdded?.link[0]?.['@href']).toBe(
      `https://tracker.example.org/#/repo/${encodeRouteId('pallets/flask')}`,
    );
    expect((await call(owner, '/auth/me/feed-token')).json().last_used_at).toEqual(expect.any(String));
  });

  it('applies the token owner’s visibility: no private repository for a member who can’t see it', async () => {
    const { token } = await newToken(outsider);
    const feed = parseFeed((await fetchFeed(`?token=${token}`)).body);
    const titles = (feed.entry ?? []).map((entry) => entry.title);
    expect(titles).toHaveLength(2);
    expect(titles.join('\n')).not.toContain(PRIVATE_REPOSITORY);
  });

  it('narrows to one tag, and a tag without events is an empty valid feed', async () => {
    const { token } = await newToken(owner);
    const python = parseFeed((await fetchFeed(`?token=${token}&tag=Python`)).body);
    expect(python.id).toBe('tag:tracker.example.org,2026-11-25:activity/tag/python');
    expect(python.title).toBe('Repository Tracker: activity of tag Python');
    expect((python.entry ?? []).map((entry) => entry.title)).toEqual([
      'pallets/flask got a description',
      'pallets/flask was added to the catalogue by Grace Hopper',
    ]);
    const empty = parseFeed((await fetchFeed(`?token=${token}&tag=nothing`)).body);
    expect(empty.entry).toBeUndefined();
    expect(empty.updated).toEqual(expect.any(String));
  });

  it('never writes the token to the log, even at trace level: only the route pattern', async () => {
    const { token } = await newToken(owner);
    logLines.length = 0;
    expect((await fetchFeed(`?token=${token}&tag=python`)).statusCode).toBe(200);
    expect((await fetchFeed(`?token=${token}x`)).statusCode).toBe(401);
    expect(logLines.length).toBeGreaterThan(0);
    const log = logLines.join('\n');
    expect(log).toContain('/feeds/activity.atom');
    expect(log).not.toContain(token);
    expect(log).not.toContain('token=');
  });
});
