import { Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestDatabase, type ScratchDatabase } from '../../../test/helpers/test-database.ts';
import { migrations } from '../../db/migrations/index.ts';

/**
 * Migration 2026-11-29-0300 (docs/decisions.md, "Decision status in the list"): each
 * repository's current status and quadrant copied onto its row from `repository_decision_current`;
 * repositories without a decision keep null.
 */

const BEFORE = '2026-11-29-0200-radar';
let database: ScratchDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

describe('migration 2026-11-29-0300 (decision status on the row)', () => {
  it('backfills the current decisions, leaving repositories without one null', async () => {
    const db = database.handle.db;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const [decided, cleared, none] = await db
      .insertInto('repositories')
      .values([
        buildRepositoryRow('octo/decided', 701),
        buildRepositoryRow('octo/cleared', 702),
        buildRepositoryRow('octo/none', 703),
      ])
      .returning('id')
      .execute();
    for (const [repository, status, quadrant] of [
      [decided?.id, 'adopt', 'tools'],
      [cleared?.id, null, null],
    ] as const) {
      const record = await db
        .insertInto('repository_decisions')
        .values({
          repository_id: repository as number,
          from_status: null,
          to_status: status,
          from_quadrant: null,
          to_quadrant: quadrant,
          rationale: 'Why',
          links: '[]',
          decided_by: null,
          decided_by_name: 'ada',
          decided_at: '2026-11-29T00:00:00.000Z',
          review_by: null,
          proposal_id: null,
          review_notified_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('repository_decision_current')
        .values({ repository_id: repository as number, status, quadrant, decision_id: record.id })
        .execute();
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('repositories')
      .select(['id', 'decision_status', 'decision_quadrant'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: decided?.id, decision_status: 'adopt', decision_quadrant: 'tools' },
      { id: cleared?.id, decision_status: null, decision_quadrant: null },
      { id: none?.id, decision_status: null, decision_quadrant: null },
    ]);
  });
});
