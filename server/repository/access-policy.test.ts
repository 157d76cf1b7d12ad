import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCatalogueUser } from '../../test/helpers/catalogue-fixtures.ts';
import { buildRepositoryRow } from '../../test/helpers/repository-row.ts';
import {
  createScratchDatabase,
  type ScratchDatabase,
  testDialect,
} from '../../test/helpers/test-database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { findVisible, type Viewer, visibleNames } from './access-policy.ts';

/**
 * `visibleNames` is `findVisible` for a window of names (a batch's read ahead asks it once a
 * window): for every name, current or former, any case, it must say what `findVisible` says
 * for each viewer — a private repository is seen by an admin and by a member with proven
 * access only.
 */
let database: ScratchDatabase;
const member: Viewer = { id: 1, is_admin: false };
const granted: Viewer = { id: 2, is_admin: false };
const admin: Viewer = { id: 3, is_admin: true };

beforeAll(async () => {
  database = await createScratchDatabase(testDialect);
  const db = database.handle.db;
  await migrateToLatest(db);
  await insertCatalogueUser(db, { id: 1, username: 'member' });
  await insertCatalogueUser(db, { id: 2, username: 'granted' });
  await insertCatalogueUser(db, { id: 3, username: 'admin', isAdmin: true });
  const rows = [
    buildRepositoryRow('Public/One', 101),
    buildRepositoryRow('secret/two', 102, { private: 1 }),
    buildRepositoryRow('renamed/now', 103),
    buildRepositoryRow('secret/renamed', 104, { private: 1 }),
  ];
  const ids: number[] = [];
  for (const row of rows) {
    const inserted = await db
      .insertInto('repositories')
      .values(row)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(inserted.id);
  }
  await db
    .insertInto('repository_aliases')
    .values([
      { full_name_lower: 'renamed/before', repository_id: ids[2] as number },
      { full_name_lower: 'secret/before', repository_id: ids[3] as number },
    ])
    .execute();
  await db
    .insertInto('repository_access')
    .values([
      { repository_id: ids[1] as number, user_id: granted.id, granted_at: new Date().toISOString() },
      { repository_id: ids[3] as number, user_id: granted.id, granted_at: new Date().toISOString() },
    ])
    .execute();
});

afterAll(async () => {
  await database?.dispose();
});

const NAMES = [
  'public/one',
  'PUBLIC/ONE',
  'secret/two',
  'renamed/now',
  'Renamed/Before',
  'secret/renamed',
  'secret/before',
  'missing/repo',
];

describe(`visibleNames (${testDialect})`, () => {
  it.each([
    ['a member', member],
    ['a member with proven access', granted],
    ['an admin', admin],
  ])('answers as findVisible does, name by name, for %s', async (_, viewer) => {
    const db = database.handle.db;
    const expected = new Set<string>();
    for (const name of NAMES) if (await findVisible(db, viewer, name)) expected.add(name.toLowerCase());
    expect(await visibleNames(db, viewer, NAMES)).toEqual(expected);
  });

  it('sees what each viewer may see', async () => {
    const db = database.handle.db;
    expect([...(await visibleNames(db, member, NAMES))].sort()).toEqual([
      'public/one',
      'renamed/before',
      'renamed/now',
    ]);
    expect(await visibleNames(db, granted, NAMES)).toEqual(
      new Set(NAMES.filter((name) => name !== 'missing/repo').map((name) => name.toLowerCase())),
    );
    expect(await visibleNames(db, member, [])).toEqual(new Set());
  });
});
