import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repositorySchema, repositorySummarySchema } from '#shared/schemas/repositories.ts';
import {
  BARE_REPOSITORY,
  EMPTY_REPOSITORY,
  HUGE_REPOSITORY,
  RENAMED_REPOSITORY_NEW_NAME,
  RENAMED_REPOSITORY_OLD_NAME,
  SINGLE_COMMIT_REPOSITORY,
} from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;
let admin: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp();
  admin = await signedInUser(t.app, { is_admin: true });
  alice = await signedInUser(t.app);
  bob = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  t.github.reset();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (
  who: { headers: Record<string, string> } | null,
  method: Method,
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who?.headers ?? {}, payload });

describe('POST /repositories/', () => {
  it('adds from a URL with every repository field, GitHub spelling, tags and a metrics row', async () => {
    const expected = t.github.getRepository('facebook/react');
    const response = await call(alice, 'POST', '/repositories/', {
      url: 'https://www.github.com/FACEBOOK/React.git/',
      tags: ' ui, frontend ,ui ',
    });
    expect(response.statusCode).toBe(201);
    const repository = repositorySchema.parse(response.json().repository);
    expect(repository).toMatchObject({
      id: 'facebook/react',
      name: 'react',
      user_id: alice.id,
      tags: 'ui,frontend',
      stars: expected?.stars,
      forks: expected?.forks,
      private: false,
      gone: false,
      comments: [],
      versions: [],
    });
    expect(repository.commits).toBe(expected?.commitCount);
    expect(repository.contributors).toBe(expected?.contributorCount);
    expect(repository.issues).toBe(expected?.openIssuesCount);
    expect(repository.last_commit).toBe(expected?.lastCommitAt);
    expect(repository.total_commits).toBe(repository.commits);
    expect(repository.recent_commits).toHaveLength(10);
    expect(repository.last_commit).toBe(repository.recent_commits[0]?.date);
    expect(repository.last_synced).not.toBeNull();
    const metrics = await call(alice, 'GET', repoPath('facebook/react', '/metrics'));
    expect(metrics.json().metrics).toEqual([
      expect.objectContaining({ stars: repository.stars, commits: repository.commits }),
    ]);
  });

  it('adds from an owner/name id and answers 409 with the existing id for a duplicate', async () => {
    const first = await call(alice, 'POST', '/repositories/', { id: 'vuejs/core' });
    expect(first.statusCode).toBe(201);
    const again = await call(bob, 'POST', '/repositories/', { url: 'https://github.com/VueJS/Core' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'vuejs/core is already in the catalogue.', code: 'conflict' });
  });

  it.each([
    [{ url: 'https://gitlab.com/a/b' }, 'url'],
    [{ id: 'not-a-repo' }, 'id'],
    [{ id: 'a/b/c' }, 'id'],
  ])('refuses %j with the documented message', async (payload, field) => {
    const response = await call(alice, 'POST', '/repositories/', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'Invalid repository format. Use github.com/user/repo or owner/repo.',
    );
    expect(response.json().fields[field]).toBeDefined();
  });

  it('answers GitHub’s 404 plainly', async () => {
    const response = await call(alice, 'POST', '/repositories/', { id: 'nobody-here/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/nobody-here\/nothing-here was not found on GitHub/);
  });

  it('handles the status cases: empty (409/204), too large (403), renamed (301), one commit', async () => {
    const empty = repositorySummarySchema.parse(
      (await call(alice, 'POST', '/repositories/', { id: EMPTY_REPOSITORY })).json().repository,
    );
    expect(empty).toMatchObject({ commits: 0, contributors: 0, last_commit: null });
    const huge = (await call(alice, 'POST', '/repositories/', { id: HUGE_REPOSITORY })).json().repository;
    expect(huge.contributors).toBe('1000+');
    const renamed = (await call(alice, 'POST', '/repositories/', { id: RENAMED_REPOSITORY_OLD_NAME })).json()
      .repository;
    expect(renamed.id).toBe(RENAMED_REPOSITORY_NEW_NAME);
    const single = (await call(alice, 'POST', '/repositories/', { id: SINGLE_COMMIT_REPOSITORY })).json()
      .repository;
    expect(single.commits).toBe(1);
    const bare = (await call(alice, 'POST', '/repositories/', { id: BARE_REPOSITORY })).json().repository;
    expect(bare).toMatchObject({ license: '', description: null, topics: '' });
    // An old name keeps resolving to the renamed repository.
    expect((await call(alice, 'GET', repoPath(RENAMED_REPOSITORY_OLD_NAME))).json().repository.id).toBe(
      RENAMED_REPOSITORY_NEW_NAME,
    );
  });

  it('needs a session', async () => {
    expect((await call(null, 'POST', '/repositories/', { id: 'facebook/react' })).statusCode).toBe(401);
    expect((await call(null, 'GET', '/repositories/')).statusCode).toBe(401);
  });
});

describe('reading', () => {
  it('GET /repositories/ lists rows without nested collections but with counts', async () => {
    await call(alice, 'POST', '/repositories/', { id: 'tensorflow/tensorflow' });
    const response = await call(bob, 'GET', '/repositories');
    expect(response.statusCode).toBe(200);
    const rows = response.json().repositories;
    const row = rows.find((candidate: { id: string }) => candidate.id === 'tensorflow/tensorflow');
    expect(repositorySummarySchema.strict().parse(row)).toMatchObject({ comment_count: 0, version_count: 0 });
    expect(row).not.toHaveProperty('comments');
  });

  it('each row of a page, and of the export, counts its own comments and versions', async () => {
    for (const id of ['sveltejs/svelte', 'vercel/next.js'])
      expect((await call(alice, 'POST', '/repositories/', { id, tags: 'counted' })).statusCode).toBe(201);
    for (const comment of ['one', 'two', 'three'])
      await call(alice, 'POST', repoPath('sveltejs/svelte', '/comments'), { comment });
    await call(alice, 'POST', repoPath('vercel/next.js', '/comments'), { comment: 'only' });
    for (const version_number of ['v1', 'v2'])
      await call(alice, 'POST', repoPath('vercel/next.js', '/versions'), { version_number });
    const page = await call(bob, 'GET', '/repositories/?tags=counted&limit=2');
    const counts = Object.fromEntries(
      page
        .json()
        .repositories.map((row: { id: string; comment_count: number; version_count: number }) => [
          row.id,
          [row.comment_count, row.version_count],
        ]),
    );
    expect(counts).toMatchObject({ 'sveltejs/svelte': [3, 0], 'vercel/next.js': [1, 2] });
    const records: Record<string, string>[] = parse(
      (await call(bob, 'GET', '/repositories/export?tags=counted')).body,
      {
        columns: true,
      },
    );
    const cells = Object.fromEntries(
      records.map((record) => [record.id, [record.comments, record.versions]]),
    );
    expect(cells).toEqual({ 'sveltejs/svelte': ['3', '0'], 'vercel/next.js': ['1', '2'] });
  });

  it('GET /repositories/{id} and check/{id} answer with and without a trailing slash', async () => {
    await call(alice, 'POST', '/repositories/', { id: 'microsoft/vscode' });
    const detail = await call(bob, 'GET', repoPath('microsoft/vscode', '/'));
    expect(detail.statusCode).toBe(200);
    expect(repositorySchema.parse(detail.json().repository).id).toBe('microsoft/vscode');
    expect(
      (await call(bob, 'GET', `/repositories/check/${encodeURIComponent('MICROSOFT/VSCODE')}`)).json(),
    ).toEqual({ exists: true });
    expect(
      (await call(bob, 'GET', `/repositories/check/${encodeURIComponent('nobody/nothing')}`)).json(),
    ).toEqual({ exists: false });
    // GitHub names reach 39 + 1 + 100 characters: the router must take them (not a 414).
    const longId = `${'o'.repeat(39)}/${'n'.repeat(100)}`;
    expect((await call(bob, 'GET', `/repositories/check/${encodeURIComponent(longId)}`)).json()).toEqual({
      exists: false,
    });
    expect((await call(bob, 'GET', repoPath('nobody/nothing'))).json()).toEqual({
      message: 'Repository not found in database',
      code: 'not_found',
    });
  });
});

describe('curation', () => {
  it('any member tags and notes; tags are normalised', async () => {
    await call(alice, 'POST', '/repositories/', { id: 'golang/go' });
    const response = await call(bob, 'PUT', repoPath('golang/go', '/metadata/'), {
      tags: 'lang, Go,go , ',
      notes: 'Fast builds.',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().repository).toMatchObject({ tags: 'lang,Go', notes: 'Fast builds.' });
  });

  it('another member can comment but not delete; the adder and admins can', async () => {
    await call(alice, 'POST', '/repositories/', { id: 'rust-lang/rust' });
    const comment = await call(bob, 'POST', repoPath('rust-lang/rust', '/comments'), {
      comment: '  Looks good  ',
    });
    expect(comment.statusCode).toBe(201);
    expect(comment.json().comment).toMatchObject({
      author: 'Anonymous',
      comment: 'Looks good',
      user_id: bob.id,
    });
    const refused = await call(bob, 'DELETE', repoPath('rust-lang/rust'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Only the member who added this repository or an administrator/);
    const deleted = await call(alice, 'DELETE', repoPath('rust-lang/rust'));
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'rust-lang/rust was removed from the catalogue.' });
    expect((await call(alice, 'GET', repoPath('rust-lang/rust'))).statusCode).toBe(404);

    await call(bob, 'POST', '/repositories/', { id: 'denoland/deno' });
    expect((await call(admin, 'DELETE', repoPath('denoland/deno'))).statusCode).toBe(200);
  });

  it('validates comments', async () => {
    await call(alice, 'POST', '/repositories/', { id: 'nodejs/node' });
    const empty = await call(alice, 'POST', repoPath('nodejs/node', '/comments'), { comment: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.comment).toBe('Please enter a comment.');
    const named = await call(alice, 'POST', repoPath('nodejs/node', '/comments'), {
      comment: 'Hi',
      author: ' Ada ',
    });
    expect(named.json().comment.author).toBe('Ada');
  });
});

describe('private repositories', () => {
  const PRIVATE = 'octo-double/private-repository';

  it('exist only for members who proved access with their own token', async () => {
    // Without a token of her own, nobody can add it.
    expect((await call(bob, 'POST', '/repositories/', { id: PRIVATE })).statusCode).toBe(404);

    const aliceToken = 'ghp_aliceCanReadPrivate0001';
    t.github.grantPrivateAccess(aliceToken);
    await call(alice, 'PUT', '/auth/me/github-token', { token: aliceToken });
    const added = await call(alice, 'POST', '/repositories/', { id: PRIVATE });
    expect(added.statusCode).toBe(201);
    expect(added.json().repository.private).toBe(true);

    // For bob it does not exist at all.
    const ids = (response: { json(): { repositories: { id: string }[] } }) =>
      response.json().repositories.map((row) => row.id);
    expect(ids(await call(bob, 'GET', '/repositories/'))).not.toContain(PRIVATE);
    expect((await call(bob, 'GET', repoPath(PRIVATE))).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/repositories/check/${encodeURIComponent(PRIVATE)}`)).json()).toEqual({
      exists: false,
    });
    expect((await call(bob, 'POST', repoPath(PRIVATE, '/comments'), { comment: 'hi' })).statusCode).toBe(404);
    expect((await call(bob, 'GET', '/repositories/export')).body).not.toContain(PRIVATE);
    expect(ids(await call(admin, 'GET', '/repositories/'))).toContain(PRIVATE);
    expect(
      (await call(admin, 'GET', '/auth/admin/repositories'))
        .json()
        .repositories.map((row: { id: string }) => row.id),
    ).toContain(PRIVATE);

    // A token that can't read it changes nothing; one that can gives visibility and the usual 409.
    await call(bob, 'PUT', '/auth/me/github-token', { token: 'ghp_bobCannotRead0001' });
    expect((await call(bob, 'POST', '/repositories/', { id: PRIVATE })).statusCode).toBe(404);
    t.github.grantPrivateAccess('ghp_bobCanRead0002');
    await call(bob, 'PUT', '/auth/me/github-token', { token: 'ghp_bobCanRead0002' });
    const proven = await call(bob, 'POST', '/repositories/', { id: PRIVATE });
    expect(proven.statusCode).toBe(409);
    expect(ids(await call(bob, 'GET', '/repositories/'))).toContain(PRIVATE);
  });

  it('can never be added through the server token', async () => {
    const serverToken = 'ghp_serverTokenWithAccess01';
    const withServerToken = await createReposTestApp({ GITHUB_TOKEN: serverToken });
    try {
      withServerToken.github.grantPrivateAccess(serverToken);
      const member = await signedInUser(withServerToken.app);
      const response = await withServerToken.app.inject({
        method: 'POST',
        url: '/repositories/',
        headers: member.headers,
        payload: { id: PRIVATE },
      });
      expect(response.statusCode).toBe(404);
      const publicOne = await withServerToken.app.inject({
        method: 'POST',
        url: '/repositories/',
        headers: member.headers,
        payload: { id: 'facebook/react' },
      });
      expect(publicOne.statusCode).toBe(201);
      const me = await withServerToken.app.inject({
        method: 'GET',
        url: '/auth/me/github-token',
        headers: member.headers,
      });
      // One call to learn it is private, four for the public one and, with a token, its
      // releases and (it has none) tags (docs/product.md#releases): nothing more is spent.
      expect(me.json().shared_quota_remaining).toBe(4993);
    } finally {
      await withServerToken.close();
    }
  });

  it('GET /auth/admin/repositories is for admins only', async () => {
    expect((await call(bob, 'GET', '/auth/admin/repositories')).statusCode).toBe(403);
    const response = await call(admin, 'GET', '/auth/admin/repositories');
    expect(response.json().total).toBe(response.json().repositories.length);
  });
});
