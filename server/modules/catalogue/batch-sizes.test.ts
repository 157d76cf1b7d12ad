import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp } from '../../../test/helpers/repos-app.ts';

/**
 * A token's GraphQL queries grow from 25 towards GITHUB_GRAPHQL_BATCH_MAX while GitHub answers
 * fast, and halve when it cuts one off (docs/architecture.md#graphql-batching); an import asks
 * only for what its list rows need, and each query's rows stream as it returns.
 */
let t: Awaited<ReturnType<typeof createReposTestApp>>;

const TOKEN = 'ghp_batchSizesImporter0001';
const names = (from: number, count: number) =>
  listDoubleRepositories()
    .filter((repository) => !repository.special && !repository.isPrivate)
    .slice(from, from + count)
    .map((repository) => repository.fullName);

async function importer(token = TOKEN) {
  const member = await signedInUser(t.app);
  await t.app.inject({
    method: 'PUT',
    url: '/auth/me/github-token',
    headers: member.headers,
    payload: { token },
  });
  return member;
}

const graphqlRequests = () => t.github.requests.filter((request) => request.key === 'POST /graphql');

beforeAll(async () => {
  t = await createReposTestApp({ GITHUB_GRAPHQL_BATCH_MAX: '60' }, { preloadGraphqlSchema: true });
});

afterAll(async () => {
  await t?.close();
});

describe('a 200-line import', () => {
  it('reads 25, 37, 55, 60 and the last 23 in five queries of the row shape, 1 + 1 + 2 + 2 + 1 points', async () => {
    t.github.reset();
    const member = await importer();
    const lines = names(0, 200);
    const response = await t.app.inject({
      method: 'POST',
      url: '/repositories/batch',
      headers: { ...member.headers, accept: 'application/x-ndjson' },
      payload: { items: lines.map((id) => ({ id })) },
    });
    const results = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(results.at(-1)).toEqual({ done: true, succeeded: 200, failed: 0, skipped: 0, queued: 0 });
    expect(results.slice(0, -1).map((line) => line.index)).toEqual(lines.map((_, index) => index));
    expect(graphqlRequests().map((request) => request.aliases)).toEqual([25, 37, 55, 60, 23]);
    // Four connections a repository (no releases): 60 cost 2 points, not 3.
    expect(t.github.quota(TOKEN, 'graphql').used).toBe(7);
    expect(t.github.counts.get('GET /repos/{owner}/{repo}')).toBe(0);

    // The row as GitHub has it; the newest commit only, releases with the first sync.
    const sample = results[150].repository;
    const expected = t.github.getRepository(sample.id);
    expect(sample).toMatchObject({
      stars: expected?.stars,
      issues: expected?.openIssuesCount,
      commits: expected?.commitCount,
      last_commit: expected?.lastCommitAt,
      contributors: null,
    });
    const row = await t.app.db
      .selectFrom('repository_commits')
      .innerJoin('repositories', 'repositories.id', 'repository_commits.repository_id')
      .select(['repository_commits.commits'])
      .where('repositories.full_name', '=', sample.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.commits)).toHaveLength(1);
    const versions = await t.app.db.selectFrom('versions').select(['id']).execute();
    expect(versions).toHaveLength(0);
  });

  it('halves a query GitHub cuts off and answers every line once; later queries stay under what failed', async () => {
    t.github.reset();
    // Four connections a repository × 2 ms: 55 take 440 ms, past a 400 ms limit; 37 take 296 ms.
    t.github.inject.graphqlTime(2, 400);
    const member = await importer('ghp_batchSizesImporter0002');
    const lines = names(200, 200);
    const response = await t.app.inject({
      method: 'POST',
      url: '/repositories/batch',
      headers: member.headers,
      payload: { items: lines.map((id) => ({ id })) },
    });
    const body = response.json();
    expect(body).toMatchObject({ succeeded: 200, failed: 0, skipped: 0, queued: 0 });
    expect(body.results.map((line: { index: number }) => line.index)).toEqual(lines.map((_, index) => index));
    // The 55 names again as 27 + 28, then no growth past 37, the last size that answered
    // before the 502 (GRAPHQL_CEILING_MS).
    expect(graphqlRequests().map((request) => [request.aliases, request.status])).toEqual([
      [25, 200],
      [37, 200],
      [55, 502],
      [27, 200],
      [28, 200],
      [37, 200],
      [37, 200],
      [9, 200],
    ]);
  });
});

describe('one query in flight per token', () => {
  it('two imports with the same token at once take turns at GitHub', async () => {
    t.github.reset();
    t.github.inject.latency(40);
    const [first, second] = [await importer(), await importer()];
    const send = (member: typeof first, lines: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/repositories/batch',
        headers: member.headers,
        payload: { items: lines.map((id) => ({ id })) },
      });
    const [a, b] = await Promise.all([send(first, names(400, 80)), send(second, names(480, 80))]);
    expect(a.json()).toMatchObject({ succeeded: 80, failed: 0 });
    expect(b.json()).toMatchObject({ succeeded: 80, failed: 0 });
    // Each query arrived after the one before was answered.
    const graphql = graphqlRequests();
    expect(graphql.length).toBeGreaterThanOrEqual(4);
    for (const [index, request] of graphql.entries()) {
      if (index > 0) expect(request.receivedAt).toBeGreaterThanOrEqual(graphql[index - 1]?.at ?? 0);
    }
  });
});
