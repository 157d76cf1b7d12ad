import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listDoubleRepositories } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp } from '../../../test/helpers/repos-app.ts';
import { WAIT_CEILING_MS } from '../../../test/helpers/wait-ceiling.ts';

/**
 * docs/architecture.md#github-pacing against a double that enforces GitHub's secondary limits
 * (shortened: a minute of 3 s, so a retry-after of 60 s lasts 3 s and
 * GITHUB_RETRY_AFTER_UNIT_MS is 50): when GitHub refuses, the token pauses for the
 * retry-after and the work resumes; no refusal ever reaches a member.
 */
const WINDOW_MS = 3000;
const TOKEN = 'ghp_pacedImporterToken0001';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let importer: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp(
    { GITHUB_RETRY_AFTER_UNIT_MS: String(WINDOW_MS / 60), GITHUB_INTERACTIVE_WAIT_MS: '5000' },
    // One GraphQL query and three requests in flight per minute: less than a batch needs. (The
    // queries go one at a time, a second or more apart, so two a minute would let them all in.)
    { secondary: { graphqlPointsPerMinute: 1, concurrency: 3, windowMs: WINDOW_MS } },
  );
  importer = await signedInUser(t.app);
  await t.app.inject({
    method: 'PUT',
    url: '/auth/me/github-token',
    headers: importer.headers,
    payload: { token: TOKEN },
  });
});

afterAll(async () => {
  await t?.close();
});

describe('GitHub’s secondary limits', () => {
  it('pause the token and resume: a 100-line import is all added, counted, and no refusal reaches the member', async () => {
    const fullNames = listDoubleRepositories()
      .filter((repository) => !repository.special && !repository.isPrivate)
      .slice(300, 400)
      .map((repository) => repository.fullName);
    const started = Date.now();
    const response = await t.app.inject({
      method: 'POST',
      url: '/repositories/batch',
      headers: importer.headers,
      payload: { items: fullNames.map((id) => ({ id })) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ succeeded: 100, failed: 0, skipped: 0, queued: 0 });
    // Three queries or more (25, 37, 38 when answers come back fast, as the batch grows) at one a
    // minute: GitHub refused the second, the token waited a minute out.
    expect(t.github.counts.get('POST /graphql')).toBeGreaterThanOrEqual(3);
    expect(t.github.secondary.rejections(TOKEN)).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(WINDOW_MS * 0.9);

    // The contributor counts follow in the background, more at once than GitHub's (shortened)
    // concurrency allows: refused requests wait and go again until every count is in.
    await vi.waitFor(
      async () => {
        const pending = await t.app.db
          .selectFrom('repositories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('contributors_pending', '=', 1)
          .executeTakeFirstOrThrow();
        expect(Number(pending.n)).toBe(0);
      },
      { timeout: WAIT_CEILING_MS, interval: 100 },
    );
    const counts = t.github.requests.filter(
      (request) => request.key === 'GET /repos/{owner}/{repo}/contributors' && !request.secondary,
    );
    expect(counts).toHaveLength(100);
    const failedJobs = await t.app.db
      .selectFrom('jobs')
      .select(['kind', 'last_error'])
      .where('status', '=', 'failed')
      .execute();
    expect(failedJobs).toEqual([]);
    // Every refusal GitHub sent was a secondary limit the client absorbed.
    const refusals = t.github.requests.filter((request) => request.status >= 400);
    expect(refusals.every((request) => request.secondary)).toBe(true);
  });
});
