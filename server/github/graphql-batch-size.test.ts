import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GitHubDouble,
  listDoubleRepositories,
  startGitHubDouble,
} from '../../test/github-double/index.ts';
import { testDialect } from '../../test/helpers/test-database.ts';
import { addMs, type Clock, systemClock } from '../lib/clock.ts';
import { GitHubClient } from './github-client.ts';
import { GitHubError } from './github-error.ts';
import { fetchRepositoriesWithGraphql } from './graphql-batch.ts';
import {
  GRAPHQL_BATCH_START,
  GRAPHQL_CEILING_MS,
  GRAPHQL_GROW_BELOW_MS,
  GraphqlBatchSizes,
} from './graphql-batch-size.ts';
import { SharedQuota } from './quota.ts';
import { QuotaBook } from './quota-book.ts';

/** A clock the test moves by hand. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = new Date('2026-11-26T12:00:00.000Z');
  return {
    now: () => now,
    advance(ms: number) {
      now = addMs(now, ms);
    },
  };
}

describe('GraphqlBatchSizes', () => {
  it('starts at 25 and grows ×1.5 after answers under 4 s, up to the maximum', () => {
    const sizes = new GraphqlBatchSizes(manualClock(), 60);
    const seen: number[] = [];
    for (let query = 0; query < 5; query += 1) {
      const size = sizes.sizeFor('token');
      seen.push(size);
      sizes.answered('token', size, 300);
    }
    expect(seen).toEqual([GRAPHQL_BATCH_START, 37, 55, 60, 60]);
  });

  it('keeps the size after a slow answer, and after a smaller remainder', () => {
    const sizes = new GraphqlBatchSizes(manualClock(), 60);
    sizes.answered('token', 25, GRAPHQL_GROW_BELOW_MS);
    expect(sizes.sizeFor('token')).toBe(25);
    sizes.answered('token', 10, 100);
    expect(sizes.sizeFor('token')).toBe(25);
    expect(sizes.sizeFor('another token')).toBe(25);
  });

  it('halves on a failure and grows no further than what last answered, for a while', () => {
    const clock = manualClock();
    const sizes = new GraphqlBatchSizes(clock, 60);
    sizes.answered('token', 25, 100);
    sizes.answered('token', 37, 100);
    sizes.failed('token', 55);
    expect(sizes.sizeFor('token')).toBe(27);
    sizes.answered('token', 27, 100);
    expect(sizes.sizeFor('token')).toBe(37);
    sizes.answered('token', 37, 100);
    expect(sizes.sizeFor('token')).toBe(37);
    // The ceiling is forgotten: growth probes again.
    clock.advance(GRAPHQL_CEILING_MS);
    sizes.answered('token', 37, 100);
    expect(sizes.sizeFor('token')).toBe(55);
  });

  it('blames a failure at or below the start size on the query, not the size: no ceiling', () => {
    const sizes = new GraphqlBatchSizes(manualClock(), 60);
    sizes.failed('token', 25);
    sizes.failed('token', 12);
    sizes.failed('token', 6);
    sizes.failed('token', 3);
    sizes.failed('token', 1);
    expect(sizes.sizeFor('token')).toBe(1);
    const seen: number[] = [];
    for (let query = 0; query < 10; query += 1) {
      seen.push(sizes.sizeFor('token'));
      sizes.answered('token', sizes.sizeFor('token'), 100);
    }
    expect(seen).toEqual([1, 2, 3, 4, 6, 9, 13, 19, 28, 42]);
  });

  it('never starts above a maximum below 25', () => {
    const sizes = new GraphqlBatchSizes(manualClock(), 10);
    expect(sizes.sizeFor('token')).toBe(10);
    sizes.answered('token', 10, 100);
    expect(sizes.sizeFor('token')).toBe(10);
  });
});

// The client alone touches no database: once, on the SQLite pass, is enough.
describe.skipIf(testDialect === 'postgres')('fetchRepositoriesWithGraphql with learnt sizes', () => {
  const TOKEN = 'ghp_adaptiveBatchToken0001';
  let double: GitHubDouble;
  const names = (from: number, count: number) =>
    listDoubleRepositories()
      .filter((repository) => !repository.special && !repository.isPrivate)
      .slice(from, from + count)
      .map((repository) => repository.fullName);
  const newClient = (timeoutMs = 10_000) =>
    new GitHubClient({
      apiUrl: double.url,
      graphqlUrl: `${double.url}/graphql`,
      sharedQuota: new SharedQuota(),
      clock: systemClock,
      timeoutMs,
      graphqlBatchMax: 60,
    });
  const sentSizes = () =>
    double.requests.filter((request) => request.key === 'POST /graphql').map((request) => request.aliases);

  beforeAll(async () => {
    double = await startGitHubDouble({ preloadGraphqlSchema: true, secondary: false });
  });
  afterAll(async () => {
    await double?.close();
  });

  it('grows query by query, and imports and syncs of one client share what it learnt', async () => {
    double.reset();
    const client = newClient();
    const results = await fetchRepositoriesWithGraphql(client, TOKEN, names(0, 150), {}, new Set(), {
      shape: 'row',
    });
    expect(results.size).toBe(150);
    expect(sentSizes()).toEqual([25, 37, 55, 33]);
    // The next batch (a sync's, the full query) starts where the last one left off.
    expect(client.graphqlBatchSize(TOKEN)).toBe(60);
    await fetchRepositoriesWithGraphql(client, TOKEN, names(150, 60));
    expect(sentSizes().slice(4)).toEqual([60]);
  });

  it('halves on 502 and 504, answering every name once', async () => {
    double.reset();
    const client = newClient();
    double.inject.serverErrors(1, 504);
    const answered: string[] = [];
    const wanted = names(300, 40);
    const results = await fetchRepositoriesWithGraphql(client, TOKEN, wanted, {}, new Set(), {
      onAnswers: (answers) => answered.push(...answers.keys()),
    });
    // GitHub's 504 came before it read the query: no aliases recorded.
    expect(sentSizes()).toEqual([undefined, 12, 18, 10]);
    expect(answered).toEqual(wanted);
    expect([...results.values()].every((result) => !(result instanceof GitHubError))).toBe(true);

    double.reset();
    double.inject.graphqlTooLarge(5);
    const small = await fetchRepositoriesWithGraphql(client, TOKEN, names(400, 12));
    expect(sentSizes()).toEqual([12, 6, 3, 4, 5]);
    expect(small.size).toBe(12);
  });

  it('halves a query GitHub cut off after its time limit (charged), and one that gets no answer in time', async () => {
    double.reset();
    // Four connections a repository in the row query: 37 take 296 ms, 55 take 440 ms.
    double.inject.graphqlTime(2, 400);
    const client = newClient();
    const before = double.quota(TOKEN, 'graphql').used;
    const results = await fetchRepositoriesWithGraphql(client, TOKEN, names(500, 120), {}, new Set(), {
      shape: 'row',
    });
    expect(results.size).toBe(120);
    expect([...results.values()].every((result) => !(result instanceof GitHubError))).toBe(true);
    expect(sentSizes()).toEqual([25, 37, 55, 27, 31]);
    expect(double.requests.map((request) => request.status)).toEqual([200, 200, 502, 200, 200]);
    // The time-out costs its points too (GitHub, since July 2025): 1 + 1 + 2 + 1 + 1.
    expect(double.quota(TOKEN, 'graphql').used - before).toBe(6);

    double.reset();
    // No answer within the client's 1 s deadline above 50 repositories (4 × 5 ms each).
    double.inject.graphqlTime(5);
    const patient = newClient(1000);
    // Grown by earlier fast answers to 55.
    patient.graphqlBatchSizes.answered(QuotaBook.keyOf(TOKEN), 25, 100);
    patient.graphqlBatchSizes.answered(QuotaBook.keyOf(TOKEN), 37, 100);
    const late = await fetchRepositoriesWithGraphql(patient, TOKEN, names(700, 60), {}, new Set(), {
      shape: 'row',
    });
    expect(sentSizes()).toEqual([55, 27, 33]);
    expect(late.size).toBe(60);
    expect([...late.values()].every((result) => !(result instanceof GitHubError))).toBe(true);
  });

  it('sends one query at a time per token, however many batches ask at once', async () => {
    double.reset();
    double.inject.latency(60);
    const client = newClient();
    const all = await Promise.all([
      fetchRepositoriesWithGraphql(client, TOKEN, names(800, 50)),
      fetchRepositoriesWithGraphql(client, TOKEN, names(850, 50), {}, new Set(), { shape: 'row' }),
      fetchRepositoriesWithGraphql(client, TOKEN, names(900, 50)),
    ]);
    expect(all.map((results) => results.size)).toEqual([50, 50, 50]);
    expect(double.secondary.peakConcurrency(TOKEN)).toBe(1);
    // A second token has its own turn, and its own size.
    expect(client.graphqlBatchSize('ghp_anotherToken0001')).toBe(25);
  });
});
