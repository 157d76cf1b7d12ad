import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchDoneLineSchema, batchResultItemSchema } from '#shared/schemas/repositories.ts';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp } from '../../../test/helpers/repos-app.ts';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp();
  member = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  t.github.reset();
});

const batch = (payload: object, accept = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url: '/repositories/batch',
    headers: { ...member.headers, accept },
    payload,
  });

describe('POST /repositories/batch', () => {
  it('answers JSON with one result per item, in input order, failures with their reason', async () => {
    const response = await batch({
      items: [
        { url: 'https://github.com/redis/redis' },
        { id: 'not valid' },
        { id: 'redis/redis' },
        { id: 'ghost/ghost-repo-404' },
      ],
      tags: 'db, cache',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ succeeded: 1, failed: 2, skipped: 1, queued: 0 });
    expect(body.results.map((item: { index: number }) => item.index)).toEqual([0, 1, 2, 3]);
    expect(body.results.map((item: { status: string }) => item.status)).toEqual([
      'added',
      'failed',
      'skipped',
      'failed',
    ]);
    expect(body.results[0]).toMatchObject({
      ok: true,
      input: 'https://github.com/redis/redis',
      repository: { id: 'redis/redis', tags: 'db,cache' },
    });
    expect(body.results[1]).toMatchObject({
      ok: false,
      error: 'Invalid repository format. Use github.com/user/repo or owner/repo.',
    });
    expect(body.results[2]).toMatchObject({ ok: false, error: 'redis/redis is already in the catalogue.' });
    expect(body.results[3].error).toMatch(/was not found on GitHub/);
  });

  it('streams NDJSON lines as items finish, then the summary', async () => {
    const response = await batch(
      { items: [{ id: 'elastic/elasticsearch' }, { id: 'bad line' }] },
      'application/x-ndjson',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(3);
    expect(batchResultItemSchema.parse(lines[0])).toMatchObject({ index: 0, ok: true });
    expect(batchResultItemSchema.parse(lines[1])).toMatchObject({ index: 1, ok: false });
    expect(batchDoneLineSchema.parse(lines[2])).toEqual({
      done: true,
      succeeded: 1,
      failed: 1,
      skipped: 0,
      queued: 0,
    });
  });

  it('validates the body', async () => {
    const empty = await batch({ items: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('❌ Please enter at least one repository.');
    expect((await batch({})).statusCode).toBe(400);
  });

  it('without a token, adds what the anonymous quota pays for and queues the rest with hourly ETAs', async () => {
    const names = listDoubleRepositories()
      .filter((repository) => !repository.special)
      .slice(200, 240)
      .map((repository) => ({ id: repository.fullName }));
    const response = await batch({ items: names });
    const body = response.json();
    // 60 anonymous requests an hour, up to 4 per repository.
    expect(body.succeeded).toBeGreaterThanOrEqual(14);
    expect(body.succeeded).toBeLessThanOrEqual(20);
    expect(body).toMatchObject({ failed: 0, skipped: 0, queued: names.length - body.succeeded });
    const reset = t.github.quota().reset * 1000;
    const etas = body.results
      .filter((item: { status: string }) => item.status === 'queued')
      .map((item: { eta: string }) => Date.parse(item.eta));
    expect(Math.min(...etas)).toBe(reset);
    // 15 lines an hour after that: the last of 20+ queued lines waits for a later hour.
    expect(Math.max(...etas)).toBe(reset + 3600_000);
    expect(t.github.requests.length).toBeLessThanOrEqual(60);
    expect(t.github.quota().remaining).toBeGreaterThanOrEqual(0);
    // Each queued line is a durable job, due at its ETA.
    const jobs = await t.app.db
      .selectFrom('jobs')
      .select(['run_at'])
      .where('kind', '=', 'repositories:add-queued')
      .execute();
    expect(jobs).toHaveLength(body.queued);
  });
});

describe('POST /repositories/batch with a token (GraphQL)', () => {
  const TOKEN = 'ghp_batchImporterToken0001';
  let importer: Awaited<ReturnType<typeof signedInUser>>;
  const names = (from: number, count: number) =>
    listDoubleRepositories()
      .filter((repository) => !repository.special)
      .slice(from, from + count)
      .map((repository) => repository.fullName);

  beforeAll(async () => {
    importer = await signedInUser(t.app);
    await t.app.inject({
      method: 'PUT',
      url: '/auth/me/github-token',
      headers: importer.headers,
      payload: { token: TOKEN },
    });
  });

  const importBatch = (items: object[]) =>
    t.app.inject({
      method: 'POST',
      url: '/repositories/batch',
      headers: importer.headers,
      payload: { items },
    });

  it('adds 50 lines from 2 GraphQL requests, then counts contributors in the background, values equal to REST', async () => {
    const fullNames = names(1000, 50);
    const response = await importBatch(fullNames.map((id) => ({ id })));
    expect(response.json()).toMatchObject({ succeeded: 50, failed: 0, skipped: 0, queued: 0 });
    expect(t.github.counts.get('POST /graphql')).toBe(2);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}')).toBe(0);

    const sample = response.json().results[7].repository;
    const expected = t.github.getRepository(sample.id);
    expect(sample).toMatchObject({
      stars: expected?.stars,
      forks: expected?.forks,
      issues: expected?.openIssuesCount,
      commits: expected?.commitCount,
      // Counting…
      contributors: null,
      last_commit: expected?.lastCommitAt,
    });
    await vi.waitFor(
      async () => {
        const pending = await t.app.db
          .selectFrom('repositories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('contributors_pending', '=', 1)
          .executeTakeFirstOrThrow();
        expect(Number(pending.n)).toBe(0);
      },
      { timeout: 15_000, interval: 100 },
    );
    // One REST call each: 1.04 requests per imported repository in all.
    expect(t.github.counts.get('GET /repos/{owner}/{repo}/contributors')).toBe(50);
    const counted = await t.app.inject({
      method: 'GET',
      url: `/repositories/${encodeURIComponent(sample.id)}`,
      headers: importer.headers,
    });
    expect(counted.json().repository.contributors).toBe(expected?.contributorCount);
  });

  it('writes the lines of each GraphQL answer in one commit, and a line twice in one answer once', async () => {
    const fullNames = names(1600, 40);
    // Twice in the same window, in another spelling: the second is caught inside the window's
    // transaction, as a line of its own would be.
    const items = [...fullNames, (fullNames[3] as string).toUpperCase()].map((id) => ({ id }));
    const transaction = vi.spyOn(t.app.db, 'transaction');
    try {
      const response = await importBatch(items);
      expect(response.json()).toMatchObject({ succeeded: 40, failed: 0, skipped: 1, queued: 0 });
      expect(response.json().results[40]).toMatchObject({ status: 'skipped' });
      // Two queries (25, then the rest): a commit per window, 2 (41 before, one per line), beside
      // a few of the background jobs' own.
      expect(t.github.counts.get('POST /graphql')).toBe(2);
      expect(transaction.mock.calls.length).toBeLessThanOrEqual(10);
    } finally {
      transaction.mockRestore();
    }
  });

  it('fails only the missing lines of a partial answer', async () => {
    const [first, second] = names(1200, 2);
    const response = await importBatch([
      { id: first },
      { id: 'nobody-here/missing-repository' },
      { id: second },
    ]);
    const body = response.json();
    expect(body).toMatchObject({ succeeded: 2, failed: 1 });
    expect(body.results[1].error).toMatch(/was not found on GitHub/);
  });

  it('halves the query when GitHub times out on a large one', async () => {
    t.github.inject.graphqlTooLarge(10);
    const response = await importBatch(names(1300, 30).map((id) => ({ id })));
    expect(response.json()).toMatchObject({ succeeded: 30, failed: 0 });
    expect(
      t.github.requests
        .filter((request) => request.key === 'POST /graphql' && request.status === 200)
        .every((request) => (request.aliases ?? 0) <= 10),
    ).toBe(true);
  });

  it('queues the lines, with the reset as ETA, when the GraphQL quota is spent', async () => {
    const until = Math.floor(Date.now() / 1000) + 600;
    t.github.inject.rateLimit({ resource: 'graphql', untilEpochS: until });
    const response = await importBatch(names(1400, 3).map((id) => ({ id })));
    const body = response.json();
    expect(body).toMatchObject({ succeeded: 0, failed: 0, queued: 3 });
    expect(body.results[0]).toMatchObject({
      ok: false,
      status: 'queued',
      eta: new Date(until * 1000).toISOString(),
    });
  });
});

describe('POST /repositories/import', () => {
  const importFrom = (payload: object, accept = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/repositories/import',
      headers: { ...member.headers, accept },
      payload,
    });

  beforeAll(async () => {
    // Listing a whole organisation is many calls: import with a token, like the docs say.
    await t.app.inject({
      method: 'PUT',
      url: '/auth/me/github-token',
      headers: member.headers,
      payload: { token: 'ghp_importerToken0001' },
    });
  });

  it('imports an organisation’s repositories with shared tags, streaming progress', async () => {
    const response = await importFrom(
      { source: 'owner', login: 'vuejs', tags: 'vue' },
      'application/x-ndjson',
    );
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const done = lines.at(-1);
    expect(done.done).toBe(true);
    expect(done.succeeded).toBeGreaterThan(0);
    const added = lines.filter((line) => line.ok).map((line) => line.repository);
    for (const repository of added) {
      expect(repository.id.toLowerCase().startsWith('vuejs/')).toBe(true);
      expect(repository.tags).toBe('vue');
    }
  });

  it('imports a user’s stars, and lists them 100 a page', async () => {
    t.github.resetCounts();
    const response = await importFrom({ source: 'starred', login: 'torvalds' });
    expect(response.statusCode).toBe(200);
    expect(response.json().succeeded).toBeGreaterThan(20);
    expect(t.github.counts.get('GET /users/{username}/starred')).toBe(1);
  });

  it('says so when the login is unknown or malformed', async () => {
    const unknown = await importFrom({ source: 'owner', login: 'no-such-login-anywhere' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('GitHub has no user or organisation named no-such-login-anywhere.');
    const malformed = await importFrom({ source: 'starred', login: 'not a login' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields.login).toBe('Enter a GitHub user or organisation name.');
  });
});
