import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath, TEST_GITHUB_TIMEOUT_MS } from '../../../test/helpers/repos-app.ts';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let withToken: Awaited<ReturnType<typeof signedInUser>>;
const TOKEN = 'ghp_memberPersonalToken0001';

beforeAll(async () => {
  t = await createReposTestApp();
  member = await signedInUser(t.app);
  withToken = await signedInUser(t.app);
  await t.app.inject({
    method: 'PUT',
    url: '/auth/me/github-token',
    headers: withToken.headers,
    payload: { token: TOKEN },
  });
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  t.github.reset();
  t.github.inject.clear();
});

const call = (
  who: { headers: Record<string, string> },
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who.headers, payload });

async function add(fullName: string, who = member) {
  const response = await call(who, 'POST', '/repositories/', { id: fullName });
  expect(response.statusCode).toBe(201);
  return response.json().repository;
}

describe('PUT /repositories/{id} (update from GitHub)', () => {
  it('picks up GitHub’s changes and writes the day’s metrics row', async () => {
    const before = await add('twbs/bootstrap');
    t.github.setSnapshot('2026-08-22');
    const response = await t.app.inject({
      method: 'PUT',
      url: repoPath('twbs/bootstrap'),
      headers: { ...member.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
    const after = response.json().repository;
    expect(after.stars).toBe(t.github.getRepository('twbs/bootstrap')?.stars);
    expect(after.stars).not.toBe(before.stars);
    expect(after.commits).toBeGreaterThanOrEqual(before.commits);
    expect(Date.parse(after.last_synced)).toBeGreaterThanOrEqual(Date.parse(before.last_synced));
    const metrics = (await call(member, 'GET', repoPath('twbs/bootstrap', '/metrics'))).json().metrics;
    expect(metrics).toHaveLength(1);
    expect(metrics[0].stars).toBe(after.stars);
  });

  it('costs no counted request when nothing changed and a token is used (ETags)', async () => {
    await add('vercel/next.js', withToken);
    t.github.resetCounts();
    const response = await call(withToken, 'PUT', repoPath('vercel/next.js'), {});
    expect(response.statusCode).toBe(200);
    expect(t.github.counts.counted()).toBe(0);
    expect(t.github.counts.total()).toBeGreaterThan(0);
    expect(t.github.requests.every((request) => request.status === 304)).toBe(true);
  });

  it('follows a rename: the id changes and the old id keeps resolving', async () => {
    await add('angular/angular');
    t.github.renameRepository('angular/angular', 'angular-org/angular-renamed');
    const response = await call(member, 'PUT', repoPath('angular/angular'));
    expect(response.statusCode).toBe(200);
    expect(response.json().repository.id).toBe('angular-org/angular-renamed');
    expect((await call(member, 'GET', repoPath('angular/angular'))).json().repository.id).toBe(
      'angular-org/angular-renamed',
    );
    expect((await call(member, 'GET', repoPath('angular-org/angular-renamed'))).statusCode).toBe(200);
  });

  it('keeps the data of a repository deleted on GitHub and marks it gone', async () => {
    const before = await add('octo-double/doomed-repository');
    t.github.removeRepository('octo-double/doomed-repository');
    const response = await call(member, 'PUT', repoPath('octo-double/doomed-repository'));
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/no longer exists on GitHub/);
    const stored = (await call(member, 'GET', repoPath('octo-double/doomed-repository'))).json().repository;
    expect(stored).toMatchObject({ gone: true, stars: before.stars, description: before.description });
  });

  it('queues the update when a secondary limit outlasts the wait, and says by when', async () => {
    await add('pytorch/pytorch');
    t.github.inject.secondaryLimit(120);
    const started = Date.now();
    const response = await call(member, 'PUT', repoPath('pytorch/pytorch'));
    // GITHUB_INTERACTIVE_WAIT_MS is 1 s in tests: the answer doesn't wait out the pause.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ queued: true, message: expect.stringMatching(/queued/) });
    // The engine takes it when the pause is over (retry-after 120 s, 5 ms a second in tests).
    const state = await t.app.db
      .selectFrom('repository_sync_state')
      .innerJoin('repositories', 'repositories.id', 'repository_sync_state.repository_id')
      .select('due_at')
      .where('repositories.full_name', '=', 'pytorch/pytorch')
      .executeTakeFirstOrThrow();
    expect(state.due_at).toBe(response.json().eta);
    t.github.inject.clear();
    // The token stays paused (1.2 s here) for the next test's calls.
    await new Promise((resolve) => setTimeout(resolve, 1300));
  });

  it('waits out a short secondary limit and answers as if it never happened', async () => {
    await add('pallets/flask');
    // Refused once with retry-after 30 s: 150 ms here, well within the 1 s an interactive
    // call may wait.
    t.github.inject.secondaryLimitFor(1, 30);
    const response = await call(member, 'PUT', repoPath('pallets/flask'));
    expect(response.statusCode).toBe(200);
    expect(response.json().repository.id).toBe('pallets/flask');
    // GitHub refused at least once, and the refusal never reached the member.
    const refused = t.github.requests.filter((request) => request.secondary);
    expect(refused).toHaveLength(1);
    expect(t.github.requests.every((request) => request.secondary || request.status < 400)).toBe(true);
  });

  it('retries one GitHub outage answer, then reports it as unreachable', async () => {
    await add('django/django');
    t.github.inject.serverErrors(1, 502);
    expect((await call(member, 'PUT', repoPath('django/django'))).statusCode).toBe(200);
    t.github.inject.serverErrors(10, 503);
    const response = await call(member, 'PUT', repoPath('django/django'));
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({
      code: 'bad_gateway',
      message: expect.stringMatching(/GitHub could not be reached/),
    });
    expect(response.json().request_id).toBeDefined();
  });

  it('gives up on a hanging GitHub after the time-out with a clear message', async () => {
    await add('expressjs/express');
    t.github.inject.hang();
    const started = Date.now();
    const response = await call(member, 'PUT', repoPath('expressjs/express'));
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toMatch(/time-out or outage/);
    // Given up after one time-out (a member's call is not retried), not after minutes.
    expect(Date.now() - started).toBeLessThan(2 * TEST_GITHUB_TIMEOUT_MS);
  });

  it('reports a revoked personal token so the member can fix it', async () => {
    await add('sveltejs/svelte', withToken);
    t.github.revokeToken(TOKEN);
    const response = await call(withToken, 'PUT', repoPath('sveltejs/svelte'));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/rejected the personal token/);
  });
});

describe('quota', () => {
  it('says plainly when the quota is used up, with the reset time, and keeps the data', async () => {
    // Its own app: the exhaustion it learns would refuse every later test's calls.
    const own = await createReposTestApp();
    try {
      const owner = await signedInUser(own.app);
      const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        own.app.inject({ method, url, headers: owner.headers, payload });
      const before = (await send('POST', '/repositories/', { id: 'facebook/react' })).json().repository;
      own.github.inject.rateLimit({ untilEpochS: Math.floor(Date.now() / 1000) + 1800 });

      const response = await send('PUT', repoPath('facebook/react'));
      expect(response.statusCode).toBe(429);
      const body = response.json();
      expect(body.code).toBe('rate_limited');
      expect(body.message).toMatch(/rate limit is used up. Try again after \d\d:\d\d UTC/);
      expect(body.message).toMatch(/personal GitHub token/);
      expect(body.retry_after).toBeGreaterThan(1700);
      expect(response.headers['retry-after']).toBe(String(body.retry_after));
      expect((await send('GET', repoPath('facebook/react'))).json().repository.stars).toBe(before.stars);

      // Known to be exhausted: the next attempt is refused without asking GitHub.
      own.github.resetCounts();
      expect((await send('PUT', repoPath('facebook/react'))).statusCode).toBe(429);
      expect(own.github.counts.total()).toBe(0);
    } finally {
      await own.close();
    }
  });
});

describe('GET /repositories/{id}/commits/', () => {
  it('answers a bare array of { date, sha, author, message }', async () => {
    await add('kubernetes/kubernetes');
    const response = await call(member, 'GET', repoPath('kubernetes/kubernetes', '/commits/?limit=10'));
    expect(response.statusCode).toBe(200);
    const commits = response.json();
    expect(Array.isArray(commits)).toBe(true);
    expect(commits).toHaveLength(10);
    expect(Object.keys(commits[0]).sort()).toEqual(['author', 'date', 'message', 'sha']);
  });

  it('serves freshly synced commits without asking GitHub', async () => {
    await add('grafana/grafana');
    t.github.resetCounts();
    await call(member, 'GET', repoPath('grafana/grafana', '/commits/?limit=10'));
    expect(t.github.counts.total()).toBe(0);
  });

  it('needs a session and a visible repository', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: repoPath('facebook/react', '/commits/') })).statusCode,
    ).toBe(401);
    expect((await call(member, 'GET', repoPath('no/such', '/commits/'))).json().message).toBe(
      'Repository not found in database',
    );
  });
});
