import {
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
} from 'kysely';
import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import type { Database } from '../../db/schema.ts';
import type { RadarEditionEntriesTable, RadarEditionsTable } from '../../db/schema-radar.ts';
import { hasProvenAccess, type Viewer, visibleTo } from '../../repository/access-policy.ts';

/** SQL of the radar module (docs/product.md#the-radar): Kysely only, no rules. */

type Db = Kysely<Database>;
export type EditionRow = Selectable<RadarEditionsTable>;
export type EditionEntryRow = Selectable<RadarEditionEntriesTable> & {
  /** The repository's id and name today; null once it was deleted. */
  live_id: number | null;
  live_full_name: string | null;
  /** Whether the viewer may see the repository today (false once it was deleted). */
  live_visible: boolean;
};

/** Repository ids to one `in (…)` list: well within both databases' parameter limits. */
const IDS_PER_QUERY = 1000;

function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

/** A repository's current placement: status, quadrant and the rationale of the decision behind it. */
export interface PlacementRow {
  id: number;
  full_name: string;
  private: number;
  health_grade: HealthGrade | null;
  status: DecisionStatus;
  quadrant: string;
  rationale: string;
}

/**
 * Repositories whose current decision has one of `statuses` and a quadrant, the viewer's visible
 * ones (every one when `viewer` is null: publishing, the at-risk check), optionally only those
 * carrying the lower-cased `tag` or among `ids`. Starts from `repository_decision_current`'s
 * status index, so 100,000 repositories with a few hundred decisions cost a few hundred rows
 * (docs/benchmarks.md: ≤ 50 ms p50 for `GET /radar` with 500 blips).
 */
export async function listPlacements(
  db: Db,
  options: {
    viewer: Viewer | null;
    statuses: readonly DecisionStatus[];
    tag?: string | null;
    ids?: readonly number[];
  },
): Promise<PlacementRow[]> {
  const { viewer, statuses, tag, ids } = options;
  if (ids?.length === 0) return [];
  let query = db
    .selectFrom('repositories')
    .innerJoin('repository_decision_current', 'repository_decision_current.repository_id', 'repositories.id')
    .innerJoin('repository_decisions', 'repository_decisions.id', 'repository_decision_current.decision_id')
    .select([
      'repositories.id',
      'repositories.full_name',
      'repositories.private',
      'repositories.health_grade',
      'repository_decision_current.status',
      'repository_decision_current.quadrant',
      'repository_decisions.rationale',
    ])
    .where('repository_decision_current.status', 'in', [...statuses])
    .where('repository_decision_current.quadrant', 'is not', null);
  if (viewer) query = visibleTo(query, viewer);
  if (ids) query = query.where('repositories.id', 'in', [...ids]);
  const rows = (await query.execute()).flatMap((row) =>
    row.status === null || row.quadrant === null
      ? []
      : [{ ...row, status: row.status, quadrant: row.quadrant }],
  );
  if (!tag) return rows;
  // The tag afterwards, among the few placed repositories: as a condition of the query, the
  // planner started from the tag's rows (tens of thousands for a popular tag at 100,000).
  const tagged = await taggedIds(
    db,
    tag,
    rows.map((row) => row.id),
  );
  return rows.filter((row) => tagged.has(row.id));
}

/** Of `ids`, the repositories carrying the lower-cased tag. */
export async function taggedIds(db: Db, tag: string, ids: readonly number[]): Promise<Set<number>> {
  const tagged = new Set<number>();
  for (const chunk of chunks([...new Set(ids)], IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('repository_tags')
      .select('repository_id')
      .where('tag_lower', '=', tag)
      .where('repository_id', 'in', chunk)
      .execute();
    for (const row of rows) tagged.add(row.repository_id);
  }
  return tagged;
}

export async function listQuadrants(db: Db): Promise<Array<{ key: string; name: string }>> {
  return db.selectFrom('decision_quadrants').select(['key', 'name']).orderBy('position').execute();
}

// ---- editions ----------------------------------------------------------------------------------

/** Newest first (ids grow with publishing). */
export async function listEditions(db: Db): Promise<EditionRow[]> {
  return db.selectFrom('radar_editions').selectAll().orderBy('id', 'desc').execute();
}

export async function findEdition(db: Db, id: number): Promise<EditionRow | undefined> {
  return db.selectFrom('radar_editions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest edition published before `beforeId` (any when null). */
export async function previousEdition(db: Db, beforeId: number | null): Promise<EditionRow | undefined> {
  let query = db.selectFrom('radar_editions').selectAll();
  if (beforeId !== null) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export async function findEditionByName(db: Db, name: string): Promise<EditionRow | undefined> {
  return db
    .selectFrom('radar_editions')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .executeTakeFirst();
}

export async function editionQuadrants(db: Db, editionId: number) {
  return db
    .selectFrom('radar_edition_quadrants')
    .select(['key', 'name'])
    .where('edition_id', '=', editionId)
    .orderBy('position')
    .execute();
}

/**
 * The entries of these editions, with their repository's id and name today (null once deleted)
 * and whether the viewer may see it (the access policy's rule, in the same read of the row: a
 * second pass over 500 repository rows cost PostgreSQL 13 ms at 100,000).
 */
export async function editionEntries(
  db: Db,
  editionIds: readonly number[],
  viewer: Viewer,
): Promise<EditionEntryRow[]> {
  if (editionIds.length === 0) return [];
  const rows = await db
    .selectFrom('radar_edition_entries')
    .leftJoin('repositories', 'repositories.id', 'radar_edition_entries.repository_id')
    .selectAll('radar_edition_entries')
    .select((eb) => [
      'repositories.id as live_id',
      'repositories.full_name as live_full_name',
      eb
        .or([
          eb('repositories.private', '=', 0),
          viewer.is_admin
            ? sql<SqlBool>`1 = 1`
            : hasProvenAccess(eb as unknown as ExpressionBuilder<Database, 'repositories'>, viewer),
        ])
        .as('live_visible'),
    ])
    .where('radar_edition_entries.edition_id', 'in', [...editionIds])
    .orderBy('radar_edition_entries.id')
    .execute();
  return rows.map((row) => ({ ...row, live_visible: Boolean(row.live_visible) }));
}

export async function insertEdition(
  trx: Db,
  edition: Omit<Insertable<RadarEditionsTable>, 'id'>,
  quadrants: ReadonlyArray<{ key: string; name: string }>,
  entries: ReadonlyArray<Omit<Insertable<RadarEditionEntriesTable>, 'id' | 'edition_id'>>,
): Promise<EditionRow> {
  const row = await trx.insertInto('radar_editions').values(edition).returningAll().executeTakeFirstOrThrow();
  if (quadrants.length > 0)
    await trx
      .insertInto('radar_edition_quadrants')
      .values(quadrants.map((quadrant, position) => ({ edition_id: row.id, position, ...quadrant })))
      .execute();
  // 11 values a row: 500 rows stay well under SQLite's 32,766 parameters.
  for (const chunk of chunks(entries, 500))
    await trx
      .insertInto('radar_edition_entries')
      .values(chunk.map((entry) => ({ ...entry, edition_id: row.id })))
      .execute();
  return row;
}

// ---- at-risk marks -----------------------------------------------------------------------------

/** The marks of these repositories (every mark when null). */
export async function listMarks(db: Db, ids: readonly number[] | null) {
  if (ids === null) return db.selectFrom('radar_at_risk_marks').select(['repository_id', 'cause']).execute();
  const rows: { repository_id: number; cause: string }[] = [];
  for (const chunk of chunks(ids, IDS_PER_QUERY))
    rows.push(
      ...(await db
        .selectFrom('radar_at_risk_marks')
        .select(['repository_id', 'cause'])
        .where('repository_id', 'in', chunk)
        .execute()),
    );
  return rows;
}

/** Marks a repository's cause; false when a mark was already there (another run was first). */
export async function addMark(trx: Db, repositoryId: number, cause: string, now: string): Promise<boolean> {
  const rows = await trx
    .insertInto('radar_at_risk_marks')
    .values({ repository_id: repositoryId, cause, marked_at: now })
    .onConflict((oc) => oc.columns(['repository_id', 'cause']).doNothing())
    .returning('cause')
    .execute();
  return rows.length > 0;
}

export async function removeMark(trx: Db, repositoryId: number, cause: string): Promise<void> {
  await trx
    .deleteFrom('radar_at_risk_marks')
    .where('repository_id', '=', repositoryId)
    .where('cause', '=', cause)
    .execute();
}
