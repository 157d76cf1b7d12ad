import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestDatabase, type ScratchDatabase } from '../../../test/helpers/test-database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { snapshotOfRow } from '../../repository/repository-presenter.ts';
import { ActivityRecorder } from './activity-recorder.service.ts';

/** A repository the team marked finished (docs/health.md) is never reported stale. */

let database: ScratchDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await migrateToLatest(database.handle.db);
});
afterAll(async () => {
  await database?.dispose();
});

it('a quiet repository is stale unless the team marked it finished', async () => {
  const db = database.handle.db;
  const clock = createFakeClock(new Date('2026-11-28T12:00:00Z'));
  const staleTypes = async (finished: boolean, name: string, githubId: number) => {
    const row = await db
      .insertInto('repositories')
      .values(
        buildRepositoryRow(name, githubId, {
          last_commit: '2026-06-01T00:00:00Z',
          created_at: '2026-01-01T00:00:00Z',
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    const asked: number[] = [];
    const recorder = new ActivityRecorder({
      clock,
      staleAfterDays: 30,
      isFinished: async (_trx, id) => {
        asked.push(id);
        return finished;
      },
    });
    await db
      .transaction()
      .execute((trx) =>
        recorder.synced({ before: row, after: row, snapshot: snapshotOfRow(row, '[]') }, trx),
      );
    const events = await db
      .selectFrom('repository_events')
      .select('type')
      .where('repository_id', '=', row.id)
      .execute();
    expect(asked).toEqual([row.id]);
    return events.map((event) => event.type);
  };
  expect(await staleTypes(false, 'quiet/active-team', 71)).toEqual(['stale']);
  expect(await staleTypes(true, 'quiet/finished', 72)).toEqual([]);
});
