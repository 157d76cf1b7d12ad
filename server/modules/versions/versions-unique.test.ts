import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestDatabase } from '../../../test/helpers/test-database.ts';
import { migrations } from '../../db/migrations/index.ts';

/** Version numbers are unique per repository, trimmed and in any case (docs/product.md#version-tracker). */

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createReposTestApp();
  member = await signedInUser(t.app);
  for (const id of ['vitejs/vite', 'vuejs/core']) {
    const added = await t.app.inject({
      method: 'POST',
      url: '/repositories/',
      headers: member.headers,
      payload: { id },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
});
afterAll(() => t?.close());

const addVersion = (id: string, version_number: string) =>
  t.app.inject({
    method: 'POST',
    url: repoPath(id, '/versions'),
    headers: member.headers,
    payload: { version_number },
  });

describe('unique version numbers', () => {
  it('refuses a number the repository already has, trimmed and in any case: 409', async () => {
    expect((await addVersion('vitejs/vite', 'v1.0')).statusCode).toBe(201);
    const again = await addVersion('vitejs/vite', '  V1.0 ');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'Version V1.0 already exists.', code: 'conflict' });
    // Another repository may use it.
    expect((await addVersion('vuejs/core', 'v1.0')).statusCode).toBe(201);
  });
});

describe('migration 2026-11-25-0800 (unique version numbers)', () => {
  it("renames existing duplicates with ' (2)', ' (3)', skipping names already taken", async () => {
    const scratch = await createTestDatabase();
    try {
      const db = scratch.handle.db;
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('2026-11-25-0700-create-saved-views')).error).toBeUndefined();
      const now = new Date().toISOString();
      const repository = await db
        .insertInto('repositories')
        .values(buildRepositoryRow('octo/widget', 7))
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const version_number of ['v1', ' V1', 'v1 (2)', 'v1', 'v2']) {
        await db
          .insertInto('versions')
          .values({
            repository_id: repository.id,
            user_id: null,
            version_number,
            release_date: null,
            description: null,
            snapshot: '{}',
            created_at: now,
          })
          .execute();
      }
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const numbers = await db.selectFrom('versions').select('version_number').orderBy('id').execute();
      expect(numbers.map((row) => row.version_number)).toEqual(['v1', 'V1 (3)', 'v1 (2)', 'v1 (4)', 'v2']);
    } finally {
      await scratch.dispose();
    }
  });
});
