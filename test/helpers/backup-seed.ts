import type { FastifyInstance } from 'fastify';

/**
 * Test-only: catalogue rows written straight through Kysely (the repository API is built
 * elsewhere), for admin statistics and backup round trips.
 */
let githubId = 1000;

export async function insertRepository(
  app: FastifyInstance,
  overrides: { user_id: number | null; full_name?: string; stars?: number; private?: 0 | 1 },
) {
  githubId += 1;
  const fullName = overrides.full_name ?? `owner-${githubId}/repo-${githubId}`;
  const now = new Date().toISOString();
  return app.db
    .insertInto('repositories')
    .values({
      full_name: fullName,
      github_id: 9_000_000_000 + githubId,
      user_id: overrides.user_id,
      name: fullName.split('/')[1] ?? fullName,
      description: `Description of ${fullName} — with “quotes”, emoji 🚀 and a\nnew line`,
      url: `https://github.com/${fullName}`,
      license: 'MIT',
      topics: 'cli,tooling',
      tags: 'favourite,to-read',
      notes: 'Notes with unicode: ünïcödé, 中文',
      stars: overrides.stars ?? 10,
      forks: 3,
      issues: 4,
      commits: 500,
      contributors: 1000,
      contributors_capped: 1,
      language: 'TypeScript',
      archived: 0,
      private: overrides.private ?? 0,
      gone: 0,
      default_branch: 'main',
      last_commit: '2026-11-01T10:00:00.000Z',
      last_synced: now,
      etags: JSON.stringify({ repo: 'W/"etag"' }),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A repository with stored commits, a comment, two versions, metric history, an alias and
 * private access.
 */
export async function insertCatalogue(app: FastifyInstance, userId: number) {
  const repository = await insertRepository(app, { user_id: userId, stars: 42 });
  await app.db
    .insertInto('repository_commits')
    .values({
      repository_id: repository.id,
      commits: JSON.stringify([
        { date: '2026-11-01T10:00:00Z', sha: 'abc123', author: 'Ada', message: 'Initial' },
      ]),
    })
    .execute();
  await app.db
    .insertInto('comments')
    .values([
      {
        repository_id: repository.id,
        user_id: userId,
        author: 'Ada',
        comment: 'Looks good',
        created_at: '2026-11-02T08:00:00.000Z',
      },
      {
        repository_id: repository.id,
        user_id: null,
        author: 'Anonymous',
        comment: 'Second, with "quotes" and \\ backslash',
        created_at: '2026-11-03T08:00:00.000Z',
      },
    ])
    .execute();
  await app.db
    .insertInto('versions')
    .values([
      {
        repository_id: repository.id,
        user_id: userId,
        version_number: 'v2026.11.1',
        release_date: '2026-11-01',
        description: null,
        snapshot: JSON.stringify({ stars: 40, forks: 3 }),
        created_at: '2026-11-01T09:00:00.000Z',
      },
      {
        repository_id: repository.id,
        user_id: userId,
        version_number: 'v2026.11.2',
        release_date: null,
        description: 'Second',
        snapshot: JSON.stringify({ stars: 42, forks: 3 }),
        created_at: '2026-11-02T09:00:00.000Z',
      },
    ])
    .execute();
  await app.db
    .insertInto('repository_metrics')
    .values(
      ['2026-11-01', '2026-11-02', '2026-11-03'].map((day, index) => ({
        repository_id: repository.id,
        day,
        stars: 40 + index,
        forks: 3,
        issues: 4,
        commits: 500 + index,
        contributors: 10,
      })),
    )
    .execute();
  await app.db
    .insertInto('repository_aliases')
    .values({ full_name_lower: `old-${repository.full_name.toLowerCase()}`, repository_id: repository.id })
    .execute();
  await app.db
    .insertInto('repository_access')
    .values({ repository_id: repository.id, user_id: userId, granted_at: '2026-11-01T00:00:00.000Z' })
    .execute();
  return repository;
}
