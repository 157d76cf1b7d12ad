import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { HealthGrade } from '#shared/schemas/health.ts';
import type { Database } from '../../db/schema.ts';
import type { RepositoryHealthTable } from '../../db/schema-health.ts';

type Db = Kysely<Database>;
export type HealthRow = Selectable<RepositoryHealthTable>;

export function findHealth(db: Db, repositoryId: number): Promise<HealthRow | undefined> {
  return db
    .selectFrom('repository_health')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
}

/**
 * Writes a repository's health (its first assessment or a new one), and its score and grade on
 * its row for the list. Call inside a transaction: the two stay together.
 */
export async function saveHealth(db: Db, row: Insertable<RepositoryHealthTable>): Promise<void> {
  const { repository_id: _id, ...changes } = row;
  await db
    .insertInto('repository_health')
    .values(row)
    .onConflict((oc) => oc.column('repository_id').doUpdateSet(changes))
    .execute();
  await keepOnRow(db, row.repository_id, row.score ?? null, row.grade);
}

/** The score and grade on the repository's row (the list's sort and filter), when they changed. */
export async function keepOnRow(
  db: Db,
  repositoryId: number,
  score: number | null,
  grade: HealthGrade,
): Promise<void> {
  await db
    .updateTable('repositories')
    .set({ health_score: score, health_grade: grade })
    .where('id', '=', repositoryId)
    .where((eb) =>
      eb.or([
        eb('health_grade', 'is', null),
        eb('health_grade', '!=', grade),
        eb('health_score', 'is', null),
        eb('health_score', '!=', score ?? -1),
      ]),
    )
    .execute();
}

/**
 * Repositories whose health is due (GitHub's health query), oldest due first: never assessed
 * ones (no row) and those whose `due_at` has come. Gone repositories are left alone.
 */
export async function dueForHealth(db: Db, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('repositories')
    .leftJoin('repository_health', 'repository_health.repository_id', 'repositories.id')
    .select('repositories.id')
    .where('repositories.gone', '=', 0)
    .where((eb) =>
      eb.or([eb('repository_health.due_at', 'is', null), eb('repository_health.due_at', '<=', now)]),
    )
    .orderBy('repository_health.due_at')
    .orderBy('repositories.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The score on the day's metrics row (the History chart's Health series), when the day has one:
 * every add and sync writes it in the same transaction, before health is assessed.
 */
export async function recordDailyScore(
  db: Db,
  repositoryId: number,
  day: string,
  score: number | null,
): Promise<void> {
  await db
    .updateTable('repository_metrics')
    .set({ health_score: score })
    .where('repository_id', '=', repositoryId)
    .where('day', '=', day)
    .execute();
}

/** Makes a repository's health due now (it changed on GitHub), unless read within `notBefore`. */
export async function makeDue(db: Db, repositoryId: number, now: string, notBefore: string): Promise<void> {
  await db
    .updateTable('repository_health')
    .set({ due_at: now })
    .where('repository_id', '=', repositoryId)
    .where('due_at', '>', now)
    .where((eb) => eb.or([eb('github_read_at', 'is', null), eb('github_read_at', '<=', notBefore)]))
    .execute();
}

/** Publication dates of the repository's latest ≤ 10 stored releases (not tags), newest first. */
export async function storedReleaseDates(db: Db, repositoryId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('repository_releases')
    .select('published_at')
    .where('repository_id', '=', repositoryId)
    .where('kind', '=', 'release')
    .where('prerelease', '=', 0)
    .where('published_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .orderBy('published_at', 'desc')
    .limit(10)
    .execute();
  return rows.map((row) => row.published_at as string);
}

/** Whether the team marked the repository finished: stable, no activity expected. */
export async function isFinished(db: Db, repositoryId: number): Promise<boolean> {
  const row = await db
    .selectFrom('repository_health')
    .select('override_reason')
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
  return Boolean(row?.override_reason);
}

/** Health rows scored by an older formula version, by repository id after `after`. */
export function outdatedHealth(db: Db, formulaVersion: number, after: number, limit: number) {
  return db
    .selectFrom('repository_health')
    .select(['repository_id', 'inputs', 'override_reason', 'grade'])
    .where('formula_version', '<', formulaVersion)
    .where('repository_id', '>', after)
    .orderBy('repository_id')
    .limit(limit)
    .execute();
}

/**
 * The stored scores and grades of `ids` onto their repositories' rows, in one statement; rows
 * already showing them are left alone (on PostgreSQL every update leaves a dead row version).
 */
export async function copyToRows(db: Db, ids: number[]): Promise<void> {
  await db
    .updateTable('repositories')
    .set((eb) => ({
      health_score: eb
        .selectFrom('repository_health')
        .select('repository_health.score')
        .whereRef('repository_health.repository_id', '=', 'repositories.id'),
      health_grade: eb
        .selectFrom('repository_health')
        .select('repository_health.grade')
        .whereRef('repository_health.repository_id', '=', 'repositories.id'),
    }))
    .where('id', 'in', ids)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('repository_health')
          .select('repository_health.repository_id')
          .whereRef('repository_health.repository_id', '=', 'repositories.id')
          .where(
            sql<boolean>`(repository_health.score is distinct from repositories.health_score or repository_health.grade is distinct from repositories.health_grade)`,
          ),
      ),
    )
    .execute();
}

/** The stored scores of `ids` onto their metrics rows of `day` (those that have one). */
export async function copyToDailyMetrics(db: Db, ids: number[], day: string): Promise<void> {
  await db
    .updateTable('repository_metrics')
    .set((eb) => ({
      health_score: eb
        .selectFrom('repository_health')
        .select('repository_health.score')
        .whereRef('repository_health.repository_id', '=', 'repository_metrics.repository_id'),
    }))
    .where('day', '=', day)
    .where('repository_id', 'in', ids)
    .execute();
}

/**
 * New scores of many repositories in one statement (a rescore's batch): a round trip a row cost
 * PostgreSQL about 1 ms, most of a 100,000-row rescore (docs/benchmarks.md).
 */
export async function updateScores(
  db: Db,
  rows: { repository_id: number; score: number | null; grade: HealthGrade; signals: string }[],
  formulaVersion: number,
  computedAt: string,
): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (row) =>
        sql`(cast(${row.repository_id} as integer), cast(${row.score} as integer), cast(${row.grade} as text), cast(${row.signals} as text))`,
    ),
  );
  await sql`with v (id, score, grade, signals) as (values ${values})
    update repository_health set score = v.score, grade = v.grade, signals = v.signals,
      formula_version = ${formulaVersion}, computed_at = ${computedAt}
    from v where repository_health.repository_id = v.id`.execute(db);
}
