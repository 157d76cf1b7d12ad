import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GitHubDouble,
  RENAMED_REPOSITORY_OLD_NAME,
  STAR_HISTORY_API_VERSION,
  STARS_GONE_REPOSITORY,
  STARS_HIDDEN_REPOSITORY,
  STARS_UNLISTED_REPOSITORY,
  type StarHistoryWeek,
  starHistoryWeeks,
  startGitHubDouble,
} from './index.ts';

let github: GitHubDouble;
const TOKEN = 'ghp_starHistoryTests01';

beforeAll(async () => {
  github = await startGitHubDouble();
});

afterAll(async () => {
  await github?.close();
});

const get = (path: string, version: string | null = STAR_HISTORY_API_VERSION) =>
  fetch(`${github.url}${path}`, {
    headers: {
      authorization: `token ${TOKEN}`,
      ...(version ? { 'x-github-api-version': version } : {}),
    },
  });

const total = (weeks: readonly StarHistoryWeek[]) =>
  weeks.reduce((sum, week) => sum + week.days.reduce((a, b) => a + b, 0), 0);

describe('star history', () => {
  it('adds up to stargazers_count, from the creation week to this week, newest first', async () => {
    const repo = github.getRepository('facebook/react');
    if (!repo) throw new Error('facebook/react is in the fixtures');
    const weeks = starHistoryWeeks(repo, Date.now());
    expect(total(weeks)).toBe(repo.stars);
    expect(weeks.every((week) => week.days.every((count) => Number.isInteger(count) && count >= 0))).toBe(
      true,
    );
    const mondays = weeks.map((week) => new Date(`${week.week}T00:00:00Z`).getUTCDay());
    expect(new Set(mondays)).toEqual(new Set([1]));
    expect(Date.parse(weeks[0]?.week ?? '')).toBeLessThanOrEqual(Date.parse(repo.createdAt));

    const response = await get('/repos/facebook/react/stargazers/history?per_page=100');
    expect(response.status).toBe(200);
    const page = (await response.json()) as (StarHistoryWeek & { total: number })[];
    expect(page).toHaveLength(100);
    expect(page[0]?.week).toBe(weeks[weeks.length - 1]?.week);
    expect(page[0]?.days).toEqual(weeks[weeks.length - 1]?.days);
    expect((page[1]?.week ?? '') < (page[0]?.week ?? '')).toBe(true);
    expect(response.headers.get('link')).toContain(
      `/repositories/${repo.id}/stargazers/history?per_page=100&page=2>; rel="next"`,
    );
  });

  it('pages through every week with the Link header', async () => {
    const repo = github.getRepository('octo-double/single-commit');
    if (!repo) throw new Error('special repository missing');
    const weeks = starHistoryWeeks(repo, Date.now());
    github.resetCounts();
    const seen: StarHistoryWeek[] = [];
    let next: string | null = `${github.url}/repos/octo-double/single-commit/stargazers/history?per_page=100`;
    while (next) {
      const response = await get(next.slice(github.url.length));
      seen.push(...((await response.json()) as StarHistoryWeek[]));
      next = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen.map((week) => week.week)).toEqual(weeks.map((week) => week.week).reverse());
    expect(total(seen)).toBe(repo.stars);
    expect(github.counts.get('GET /repos/{owner}/{repo}/stargazers/history')).toBe(1);
    expect(github.counts.get('GET /repositories/{id}/stargazers/history')).toBe(
      Math.ceil(weeks.length / 100) - 1,
    );
    // REST points like any other route: each page counts against the token's quota.
    expect(github.counts.counted()).toBe(Math.ceil(weeks.length / 100));
  });

  it('needs REST version 2026-03-10', async () => {
    expect((await get('/repos/facebook/react/stargazers/history', null)).status).toBe(404);
    expect((await get('/repos/facebook/react/stargazers/history', '2022-11-28')).status).toBe(404);
    const unknown = await get('/repos/facebook/react/stargazers/history', '2099-01-01');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/X-GitHub-Api-Version/);
  });

  it('answers 404, 403 and 410 for the designated repositories, 301 for a former name', async () => {
    expect((await get(`/repos/${STARS_UNLISTED_REPOSITORY}/stargazers/history`)).status).toBe(404);
    expect((await get(`/repos/${STARS_HIDDEN_REPOSITORY}/stargazers/history`)).status).toBe(403);
    expect((await get(`/repos/${STARS_GONE_REPOSITORY}/stargazers/history`)).status).toBe(410);
    expect((await get('/repos/no-such-owner/no-such-repo/stargazers/history')).status).toBe(404);
    const moved = await fetch(`${github.url}/repos/${RENAMED_REPOSITORY_OLD_NAME}/stargazers/history`, {
      headers: { 'x-github-api-version': STAR_HISTORY_API_VERSION },
      redirect: 'manual',
    });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toMatch(/\/repositories\/\d+\/stargazers\/history$/);
  });
});
