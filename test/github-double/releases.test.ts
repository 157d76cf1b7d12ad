import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildBatchQuery } from '../../server/github/graphql-batch.ts';
import { listDoubleRepositories } from './catalogue.ts';
import { schemaErrors } from './openapi-schemas.ts';
import { type GitHubDouble, startGitHubDouble } from './server.ts';

const TOKEN = 'ghp_release_reader';
const COLLABORATOR = 'ghp_release_collaborator';

let double: GitHubDouble;

beforeAll(async () => {
  double = await startGitHubDouble({ control: true, privateAccessTokens: [COLLABORATOR] });
});

afterAll(async () => {
  await double.close();
});

beforeEach(() => {
  double.reset();
});

const names = listDoubleRepositories()
  .filter((repository) => !repository.special)
  .slice(0, 100)
  .map((repository) => repository.fullName);
const ofStyle = (style: string) => names.filter((name) => double.releases.style(name) === style);

async function get(path: string, token: string | null = TOKEN, etag?: string) {
  const response = await fetch(`${double.url}${path}`, {
    headers: {
      ...(token ? { authorization: `token ${token}` } : {}),
      ...(etag ? { 'if-none-match': etag } : {}),
    },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

describe('releases and tags (REST)', () => {
  it('derives a mix of styles, the same on every run', () => {
    expect(ofStyle('releases').length).toBeGreaterThan(40);
    expect(ofStyle('tags').length).toBeGreaterThan(10);
    expect(ofStyle('none').length).toBeGreaterThan(5);
    const name = ofStyle('releases')[0] ?? '';
    expect(double.releases.list(name).map((release) => release.tag)).toEqual(
      double.releases.list(name).map((release) => release.tag),
    );
  });

  it('lists releases newest first in GitHub’s shape, paginated, conditional', async () => {
    const name = ofStyle('releases').find((candidate) => double.releases.list(candidate).length > 5) ?? '';
    const page = await get(`/repos/${name}/releases?per_page=5`);
    expect(page.status).toBe(200);
    expect(schemaErrors('repos/list-releases', 200, page.body)).toEqual([]);
    expect(page.body.map((release: { tag_name: string }) => release.tag_name)).toEqual(
      double.releases
        .list(name)
        .slice(0, 5)
        .map((release) => release.tag),
    );
    expect(page.headers.get('link')).toContain('rel="next"');
    // Pages are built lazily; the last page still counts every release.
    const last = /page=(\d+)>; rel="last"/.exec(page.headers.get('link') ?? '')?.[1];
    expect(Number(last)).toBe(Math.ceil(double.releases.list(name).length / 5));
    const again = await get(`/repos/${name}/releases?per_page=5`, TOKEN, page.headers.get('etag') ?? '');
    expect(again.status).toBe(304);
    expect(double.quota(TOKEN).used).toBe(1);

    double.releases.publish(name, { tag: 'v77.0.0', name: 'Seventy-seven', body: 'Notes' });
    const changed = await get(`/repos/${name}/releases?per_page=5`, TOKEN, page.headers.get('etag') ?? '');
    expect(changed.status).toBe(200);
    expect(changed.body[0]).toMatchObject({ tag_name: 'v77.0.0', name: 'Seventy-seven', body: 'Notes' });
  });

  it('shows drafts only to collaborators; latest is the newest full release; 404 without one', async () => {
    const name = ofStyle('releases')[0] ?? '';
    double.releases.publish(name, { tag: 'v90.0.0-rc.1', prerelease: true });
    double.releases.publish(name, { tag: 'v90.0.0', draft: true });
    const seen = await get(`/repos/${name}/releases?per_page=3`);
    expect(seen.body.map((release: { tag_name: string }) => release.tag_name)).not.toContain('v90.0.0');
    const collaborator = await get(`/repos/${name}/releases?per_page=3`, COLLABORATOR);
    expect(collaborator.body[0]).toMatchObject({ tag_name: 'v90.0.0', draft: true, published_at: null });
    const latest = await get(`/repos/${name}/releases/latest`);
    expect(schemaErrors('repos/get-latest-release', 200, latest.body)).toEqual([]);
    expect(latest.body.prerelease).toBe(false);
    expect(latest.body.tag_name).toBe(double.releases.list(name).find((release) => !release.prerelease)?.tag);
    expect((await get(`/repos/${ofStyle('none')[0]}/releases/latest`)).status).toBe(404);
    expect((await get(`/repos/${ofStyle('tags')[0]}/releases`)).body).toEqual([]);
  });

  it('lists tags, keeps the tag of a deleted release, and grows with the later snapshot', async () => {
    const name = ofStyle('tags')[0] ?? '';
    const tags = await get(`/repos/${name}/tags?per_page=5`, null);
    expect(tags.status).toBe(200);
    expect(schemaErrors('repos/list-tags', 200, tags.body)).toEqual([]);
    expect(tags.body.map((tag: { name: string }) => tag.name)).toEqual(
      double.releases.tags(name).slice(0, 5),
    );

    const released = ofStyle('releases')[1] ?? '';
    const tag = double.releases.list(released)[0]?.tag ?? '';
    double.releases.delete(released, tag);
    expect(double.releases.list(released).map((release) => release.tag)).not.toContain(tag);
    expect(double.releases.tags(released)).toContain(tag);

    const before = double.releases.tags(released).length;
    double.setSnapshot('2026-08-22');
    expect(double.releases.tags(released).length).toBeGreaterThanOrEqual(before);
  });

  it('is steered by control routes: publish, delete, push a tag', async () => {
    const name = ofStyle('none')[0] ?? '';
    const post = (path: string, body: object) =>
      fetch(`${double.url}/_double/${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect(
      (await post('releases/publish', { fullName: name, tag: 'v1.0.0', prerelease: false })).status,
    ).toBe(200);
    expect((await post('releases/publish', { fullName: name, tag: 'v1.0.0' })).status).toBe(422);
    expect((await post('tags/push', { fullName: name, tag: 'v1.0.1' })).status).toBe(200);
    expect(double.releases.tags(name)).toEqual(['v1.0.1', 'v1.0.0']);
    expect((await post('releases/delete', { fullName: name, tag: 'v1.0.0' })).status).toBe(200);
    expect(double.releases.list(name)).toEqual([]);
    expect((await post('releases/publish', { fullName: name })).status).toBe(400);
  });
});

describe('releases and tags (GraphQL)', () => {
  async function query(text: string) {
    const response = await fetch(`${double.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `token ${TOKEN}` },
      body: JSON.stringify({ query: text }),
    });
    return (await response.json()) as {
      data: Record<string, unknown> & { rateLimit: { cost: number } };
      errors?: unknown[];
    };
  }

  it('answers the app’s batch query like REST, releases or tags, 25 repositories for one point', async () => {
    const batch = names.slice(0, 25);
    const tagged = new Set(ofStyle('tags').filter((name) => batch.includes(name)));
    const answer = await query(
      buildBatchQuery(batch, new Set([...tagged].map((name) => name.toLowerCase()))),
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.rateLimit.cost).toBe(1);
    batch.forEach((name, index) => {
      const repository = answer.data[`r${index}`] as {
        releases?: { nodes: { tagName: string; isDraft: boolean }[] };
        refs?: { nodes: { name: string; target: { committedDate: string } }[] };
        latestRelease?: unknown;
      };
      if (tagged.has(name)) {
        expect(repository.latestRelease).toBeNull();
        expect(repository.refs?.nodes.map((node) => node.name)).toEqual(
          double.releases.tags(name).slice(0, 5),
        );
        expect(repository.refs?.nodes[0]?.target.committedDate).toMatch(/^\d{4}-/);
      } else {
        expect(repository.releases?.nodes.map((node) => node.tagName)).toEqual(
          double.releases
            .list(name)
            .slice(0, 5)
            .map((release) => release.tag),
        );
      }
    });
  });
});
