import { afterEach, describe, expect, it } from 'vitest';
import { type GitHubDouble, startGitHubDouble } from './server.ts';

/** The double's secondary limits (README.md, "Secondary limits"), in a shortened minute. */
const doubles: GitHubDouble[] = [];
afterEach(async () => {
  for (const double of doubles.splice(0)) await double.close();
});

async function start(secondary: Parameters<typeof startGitHubDouble>[0]) {
  const double = await startGitHubDouble(secondary);
  doubles.push(double);
  return double;
}

function call(
  double: GitHubDouble,
  path: string,
  init: { token?: string; method?: string; body?: string } = {},
) {
  return fetch(`${double.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `token ${init.token}` } : {}),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body,
  });
}

const TOKEN = 'ghp_secondaryLimitsA';
const OTHER = 'ghp_secondaryLimitsB';
const QUERY = JSON.stringify({ query: 'query { viewer { login } }' });

describe('secondary limits', () => {
  it('refuses REST points over the minute’s budget with GitHub’s answer, and lifts it after retry-after', async () => {
    // A minute of 600 ms: one second of retry-after is 10 ms.
    const double = await start({ secondary: { restPointsPerMinute: 3, windowMs: 600 } });
    for (let i = 0; i < 3; i++)
      expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(200);
    const refused = await call(double, '/repos/facebook/react', { token: TOKEN });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('retry-after')).toBe('60');
    // Not the primary limit: the hourly quota is far from spent.
    expect(Number(refused.headers.get('x-ratelimit-remaining'))).toBe(4997);
    const body = (await refused.json()) as { message: string; documentation_url: string };
    expect(body.message).toMatch(/^You have exceeded a secondary rate limit\. Please wait a few minutes/);
    expect(body.documentation_url).toMatch(/#about-secondary-rate-limits$/);
    expect(double.requests.at(-1)).toMatchObject({ status: 403, secondary: true, counted: false });
    expect(double.secondary.rejections(TOKEN)).toBe(1);
    // Another token has its own budget.
    expect((await call(double, '/repos/facebook/react', { token: OTHER })).status).toBe(200);
    // Still refused within retry-after, though the window has room again soon after.
    expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 650));
    expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(200);
    expect(double.quota(TOKEN).used).toBe(4);
    expect(double.secondary.peakPointsInWindow('rest', TOKEN)).toBe(3);
  });

  it('counts 5 points for a REST write', async () => {
    const double = await start({ secondary: { restPointsPerMinute: 6, windowMs: 60_000 } });
    expect(
      (await call(double, '/repos/facebook/react', { token: TOKEN, method: 'PATCH', body: '{}' })).status,
    ).not.toBe(403);
    expect(double.secondary.pointsInWindow('rest', TOKEN)).toBe(5);
    expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(200);
    expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(403);
  });

  it('counts GraphQL points apart from REST points', async () => {
    const double = await start({
      secondary: { restPointsPerMinute: 1, graphqlPointsPerMinute: 2, windowMs: 60_000 },
    });
    expect((await call(double, '/repos/facebook/react', { token: TOKEN })).status).toBe(200);
    expect((await call(double, '/graphql', { token: TOKEN, method: 'POST', body: QUERY })).status).toBe(200);
    expect((await call(double, '/graphql', { token: TOKEN, method: 'POST', body: QUERY })).status).toBe(200);
    expect((await call(double, '/graphql', { token: TOKEN, method: 'POST', body: QUERY })).status).toBe(403);
    expect(double.secondary.pointsInWindow('graphql', TOKEN)).toBe(2);
    expect(double.secondary.pointsInWindow('rest', TOKEN)).toBe(1);
  });

  it('refuses requests beyond the concurrency cap, per caller', async () => {
    const double = await start({ latencyMs: 150, secondary: { concurrency: 2 } });
    const statuses = await Promise.all(
      [TOKEN, TOKEN, TOKEN, OTHER].map(
        async (token) => (await call(double, '/repos/facebook/react', { token })).status,
      ),
    );
    expect(statuses.filter((status) => status === 403)).toHaveLength(1);
    expect(statuses[3]).toBe(200);
    expect(double.secondary.peakConcurrency(TOKEN)).toBe(2);
  });

  it('refuses the next requests when told to, whatever their pace', async () => {
    const double = await start({});
    double.inject.secondaryLimitFor(2, 30);
    const first = await call(double, '/repos/facebook/react');
    expect(first.status).toBe(403);
    expect(first.headers.get('retry-after')).toBe('30');
    expect((await call(double, '/repos/facebook/react')).status).toBe(403);
    expect((await call(double, '/repos/facebook/react')).status).toBe(200);
    expect(double.quota().used).toBe(1);
  });

  it('with enforcement off, counts the pace a client kept', async () => {
    const double = await start({ secondary: false });
    for (let i = 0; i < 5; i++) expect((await call(double, '/repos/facebook/react')).status).toBe(200);
    expect(double.secondary.peakPointsInWindow('rest', 'anonymous')).toBe(5);
    expect(double.secondary.rejections()).toBe(0);
  });
});
