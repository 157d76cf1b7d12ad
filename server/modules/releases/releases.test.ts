import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../../../test/helpers/repos-app.ts';

/**
 * Releases become versions (docs/product.md#releases), end to end through the API, the sync
 * engine and the GitHub double, on SQLite and (TEST_DB=postgres) PostgreSQL.
 */

const SERVER_TOKEN = 'ghp_serverTokenForReleases01';
const MEMBER_TOKEN = 'ghp_memberTokenForReleases01';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let withToken: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp({ GITHUB_TOKEN: SERVER_TOKEN });
  member = await signedInUser(t.app);
  withToken = await signedInUser(t.app);
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/auth/me/github-token',
    headers: withToken.headers,
    payload: { token: MEMBER_TOKEN },
  });
  expect(saved.statusCode).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

/** Ordinary repositories of one release style, in ranking order; each test takes its own. */
function pick(style: 'releases' | 'tags' | 'none', skip = 0): string {
  const names = listDoubleRepositories()
    .filter((repository) => !repository.special && !repository.isPrivate)
    .slice(0, 200)
    .map((repository) => repository.fullName)
    .filter((name) => t.github.releases.style(name) === style)
    // Newest listed release a full one, so the first read has something to take.
    .filter((name) => style !== 'releases' || t.github.releases.list(name)[0]?.prerelease === false);
  const name = names[skip];
  if (!name) throw new Error(`no ${style} repository #${skip}`);
  return name;
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, who = member) =>
  t.app.inject({ method, url, headers: who.headers, payload });

async function add(fullName: string, who = member) {
  const response = await call('POST', '/repositories/', { id: fullName }, who);
  expect(response.statusCode).toBe(201);
  return response.json().repository;
}

async function versionsOf(fullName: string) {
  const response = await call('GET', repoPath(fullName));
  expect(response.statusCode).toBe(200);
  return response.json().repository.versions as {
    id: number;
    version_number: string;
    release_date: string | null;
    description: string | null;
    source: string;
    release_url: string | null;
  }[];
}

async function releaseEvents(fullName: string) {
  const rows = await t.app.db
    .selectFrom('repository_events as e')
    .innerJoin('repositories as r', 'r.id', 'e.repository_id')
    .select(['e.data', 'e.occurred_at'])
    .where('r.full_name', '=', fullName)
    .where('e.type', '=', 'release_published')
    .orderBy('e.id')
    .execute();
  return rows.map((row) => ({ ...JSON.parse(row.data), occurred_at: row.occurred_at }));
}

describe('releases become versions', () => {
  it('takes only the latest release on the first read, then each new one, with its snapshot and event', async () => {
    const name = pick('releases', 0);
    const listed = t.github.releases.list(name);
    const latest = listed.find((release) => !release.prerelease);
    await add(name);
    const first = await versionsOf(name);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      version_number: latest?.tag,
      source: 'release',
      release_url: `https://github.com/${name}/releases/tag/${latest?.tag}`,
      release_date: latest?.publishedAt?.slice(0, 10),
    });
    // Already out when the repository was added: no news.
    expect(await releaseEvents(name)).toEqual([]);

    t.github.releases.publish(name, {
      tag: 'v99.0.0',
      name: 'Big one',
      body: '## Highlights\n\n* Faster\n* Smaller\n* Kinder\n* Safer\n* Greener\n* Sixth line',
    });
    t.github.resetCounts();
    const run = await syncEverythingNow(t.app);
    expect(run.synced).toBeGreaterThanOrEqual(1);
    // Read within the engine's one GraphQL query per 25 repositories: no REST call, cost 1.
    expect(t.github.counts.get('POST /graphql')).toBe(1);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}/releases')).toBe(0);
    expect(t.github.quota(SERVER_TOKEN, 'graphql').used).toBe(1);

    const after = await versionsOf(name);
    expect(after.map((version) => version.version_number)).toEqual([latest?.tag, 'v99.0.0']);
    expect(after[1]).toMatchObject({
      source: 'release',
      description: 'Big one\nHighlights\n* Faster\n* Smaller\n* Kinder\n* Safer\n…',
      release_url: `https://github.com/${name}/releases/tag/v99.0.0`,
    });
    expect(await releaseEvents(name)).toMatchObject([
      { tag: 'v99.0.0', name: 'Big one', prerelease: false, url: after[1]?.release_url },
    ]);
    // The snapshot is the metrics at the time, like a member's version: compare works.
    const compared = await call(
      'GET',
      `/api/compare-versions?repo_id=${encodeURIComponent(name)}&version1_id=${after[0]?.id}&version2_id=${after[1]?.id}`,
    );
    expect(compared.statusCode).toBe(200);
    expect(Object.keys(compared.json().differences)).toContain('stars');

    // Nothing new: the next sync adds nothing.
    await syncEverythingNow(t.app);
    expect(await versionsOf(name)).toHaveLength(2);
  });

  it('leaves pre-releases, drafts and tags outside the pattern out, until the settings let them in', async () => {
    const name = pick('releases', 1);
    await add(name);
    const bad = await call('PUT', repoPath(name, '/release-settings'), {
      include_prereleases: false,
      tag_pattern: 'v*, !',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.tag_pattern).toMatch(/must be followed/);
    const saved = await call('PUT', repoPath(name, '/release-settings'), {
      include_prereleases: false,
      tag_pattern: ' v*, !*-beta* ',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().release_tracking).toMatchObject({
      include_prereleases: false,
      tag_pattern: 'v*, !*-beta*',
    });
    expect((await call('GET', repoPath(name))).json().repository.release_tracking).toMatchObject({
      tag_pattern: 'v*, !*-beta*',
      follows: 'releases',
    });

    const before = (await versionsOf(name)).length;
    t.github.releases.publish(name, { tag: 'v200.0.0-rc.1', prerelease: true });
    t.github.releases.publish(name, { tag: 'v200.0.0-beta' });
    t.github.releases.publish(name, { tag: 'nightly-2026' });
    t.github.releases.publish(name, { tag: 'v200.0.1', draft: true });
    // The server token sees drafts as a collaborator would; a draft is never a version.
    t.github.grantPrivateAccess(SERVER_TOKEN);
    await syncEverythingNow(t.app);
    expect(await versionsOf(name)).toHaveLength(before);

    await call('PUT', repoPath(name, '/release-settings'), {
      include_prereleases: true,
      tag_pattern: 'v*, !*-beta*',
    });
    t.github.releases.publish(name, { tag: 'v201.0.0-rc.1', prerelease: true });
    t.github.releases.publish(name, { tag: 'v201.0.0' });
    await syncEverythingNow(t.app);
    const versions = await versionsOf(name);
    // Settings apply to releases seen from then on: the earlier pre-release stays out.
    expect(versions.slice(before).map((version) => version.version_number)).toEqual([
      'v201.0.0-rc.1',
      'v201.0.0',
    ]);
    expect((await releaseEvents(name)).map((event) => [event.tag, event.prerelease])).toEqual([
      ['v201.0.0-rc.1', true],
      ['v201.0.0', false],
    ]);
  });

  it('follows the tags of a project without releases, over REST and then over GraphQL', async () => {
    const name = pick('tags', 0);
    const newest = t.github.releases.tags(name)[0];
    t.github.resetCounts();
    await add(name);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}/releases')).toBe(1);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}/tags')).toBe(1);
    const first = await versionsOf(name);
    expect(first).toEqual([
      expect.objectContaining({
        version_number: newest,
        source: 'release',
        description: null,
        release_url: `https://github.com/${name}/tree/${newest}`,
      }),
    ]);

    // An unchanged repository costs what it did: two free 304s, its releases not asked again.
    t.github.resetCounts();
    expect((await call('PUT', repoPath(name), {})).statusCode).toBe(200);
    expect(t.github.counts.counted()).toBe(0);
    expect(t.github.counts.total()).toBe(2);

    t.github.releases.pushTag(name, 'v9.9.9');
    t.github.resetCounts();
    await syncEverythingNow(t.app);
    expect(t.github.counts.total()).toBe(1);
    const versions = await versionsOf(name);
    expect(versions.map((version) => version.version_number)).toEqual([newest, 'v9.9.9']);
    expect(await releaseEvents(name)).toMatchObject([{ tag: 'v9.9.9', name: null, prerelease: false }]);
  });

  it('keeps the version of a release deleted on GitHub, and records the deletion', async () => {
    const name = pick('releases', 2);
    await add(name, withToken);
    t.github.releases.publish(name, { tag: 'v300.0.0' });
    // The member's "Update" reads releases over REST with their token: the release's tag
    // moved the repository's pushed_at, so its answer changed.
    expect((await call('PUT', repoPath(name), {}, withToken)).statusCode).toBe(200);
    expect((await versionsOf(name)).map((version) => version.version_number)).toContain('v300.0.0');

    t.github.releases.delete(name, 'v300.0.0');
    // Deleting a release pushes nothing; the scheduled sync's GraphQL read sees it gone.
    await syncEverythingNow(t.app);
    expect((await versionsOf(name)).map((version) => version.version_number)).toContain('v300.0.0');
    const seen = await t.app.db
      .selectFrom('repository_releases')
      .select(['tag', 'deleted_at', 'version_id'])
      .where('tag', '=', 'v300.0.0')
      .executeTakeFirstOrThrow();
    expect(seen.deleted_at).not.toBeNull();
    expect(seen.version_id).not.toBeNull();
  });

  it('links a release to the version a member already recorded under its number', async () => {
    const name = pick('releases', 3);
    await add(name);
    const manual = await call('POST', repoPath(name, '/versions'), { version_number: ' V400.0.0 ' });
    expect(manual.statusCode).toBe(201);
    expect(manual.json().version).toMatchObject({ source: 'manual', release_url: null });
    t.github.releases.publish(name, { tag: 'v400.0.0' });
    await syncEverythingNow(t.app);
    const versions = await versionsOf(name);
    expect(versions.filter((version) => version.version_number.trim().toLowerCase() === 'v400.0.0')).toEqual([
      expect.objectContaining({
        source: 'manual',
        release_url: `https://github.com/${name}/releases/tag/v400.0.0`,
      }),
    ]);
    // Still news: the release was published.
    expect(await releaseEvents(name)).toMatchObject([{ tag: 'v400.0.0' }]);
  });

  it('reads nothing more for a project with neither releases nor tags, and keeps unchanged syncs free', async () => {
    const name = pick('none', 0);
    await add(name, withToken);
    expect(await versionsOf(name)).toEqual([]);
    t.github.resetCounts();
    expect((await call('PUT', repoPath(name), {}, withToken)).statusCode).toBe(200);
    expect(t.github.counts.counted()).toBe(0);
    expect(t.github.requests.every((request) => request.status === 304)).toBe(true);
  });
});
