import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubDouble, startGitHubDouble } from './index.ts';

let github: GitHubDouble;

beforeAll(async () => {
  github = await startGitHubDouble();
});

afterAll(async () => {
  await github?.close();
});

const get = (path: string) =>
  fetch(`${github.url}${path}`, { headers: { authorization: 'token ghp_listingTests0001' } });

describe('repository listings', () => {
  it('lists an organisation’s repositories with GitHub’s pagination', async () => {
    const response = await get('/orgs/facebook/repos?per_page=2');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { full_name: string; owner: { login: string } }[];
    expect(body).toHaveLength(2);
    for (const repo of body) expect(repo.owner.login.toLowerCase()).toBe('facebook');
    expect(response.headers.get('link')).toMatch(/rel="last"/);
    const all = (await (await get('/orgs/FACEBOOK/repos?per_page=100')).json()) as { full_name: string }[];
    expect(all.map((repo) => repo.full_name)).toContain('facebook/react');
  });

  it('gives every known login a stable list of stars', async () => {
    const first = (await (await get('/users/torvalds/starred?per_page=100')).json()) as {
      full_name: string;
    }[];
    const again = (await (await get('/users/torvalds/starred?per_page=100')).json()) as {
      full_name: string;
    }[];
    expect(first.length).toBeGreaterThan(20);
    expect(again.map((repo) => repo.full_name)).toEqual(first.map((repo) => repo.full_name));
  });

  it('answers 404 for unknown logins and counts as core requests', async () => {
    github.resetCounts();
    expect((await get('/users/no-such-login-anywhere/starred')).status).toBe(404);
    expect((await get('/orgs/no-such-org-anywhere/repos')).status).toBe(404);
    expect(github.counts.get('GET /users/{username}/starred')).toBe(1);
  });
});
