import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { AdvisorySeverity, PackageRef } from '#shared/schemas/advisories.ts';
import type { Database } from '../../db/schema.ts';
import type { RepositoryAdvisoriesTable, RepositoryPackagesTable } from '../../db/schema-health.ts';
import type { TrackedVersion } from './advisory-versions.ts';

type Db = Kysely<Database>;
export type PackageRow = Selectable<RepositoryPackagesTable>;
export type AdvisoryRow = Selectable<RepositoryAdvisoriesTable>;

/** Listed: a member's word first, detection otherwise. */
export const isListed = (row: Pick<PackageRow, 'chosen' | 'detected'>): boolean =>
  row.chosen === 1 || (row.chosen === null && row.detected === 1);

export function listPackages(db: Db, repositoryId: number): Promise<PackageRow[]> {
  return db
    .selectFrom('repository_packages')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('ecosystem')
    .orderBy('name')
    .execute();
}

const sameRef = (a: PackageRef, b: Pick<PackageRow, 'ecosystem' | 'name'>) =>
  a.ecosystem === b.ecosystem && a.name.toLowerCase() === b.name.toLowerCase();

/** One package row of a repository, by its key. */
function packageRow(db: Db, repositoryId: number, ref: Pick<PackageRow, 'ecosystem' | 'name'>) {
  return db
    .updateTable('repository_packages')
    .where('repository_id', '=', repositoryId)
    .where('ecosystem', '=', ref.ecosystem)
    .where('name', '=', ref.name);
}

/**
 * Writes a new list of packages over the stored one: `keep` says what each stored row becomes
 * (its changes, or null to drop it); the new ones are inserted with `added`'s flags.
 */
async function mergePackages(
  db: Db,
  repositoryId: number,
  refs: PackageRef[],
  keep: (row: PackageRow, listed: boolean) => Partial<Pick<PackageRow, 'detected' | 'chosen'>> | null,
  added: Pick<PackageRow, 'detected' | 'chosen'>,
): Promise<void> {
  const existing = await listPackages(db, repositoryId);
  for (const row of existing) {
    const changes = keep(
      row,
      refs.some((ref) => sameRef(ref, row)),
    );
    if (changes === null) await deletePackage(db, row);
    else if (Object.entries(changes).some(([key, value]) => row[key as keyof PackageRow] !== value))
      await packageRow(db, repositoryId, row).set(changes).execute();
  }
  for (const ref of refs) {
    if (existing.some((row) => sameRef(ref, row))) continue;
    await db
      .insertInto('repository_packages')
      .values({ repository_id: repositoryId, ecosystem: ref.ecosystem, name: ref.name, ...added })
      .execute();
  }
}

/**
 * What the manifests name now: found ones marked detected, the rest not; rows nobody chose and
 * detection no longer finds are dropped (a member's word stays either way).
 */
export function saveDetected(db: Db, repositoryId: number, found: PackageRef[]): Promise<void> {
  return mergePackages(
    db,
    repositoryId,
    found,
    (row, listed) => (!listed && row.chosen === null ? null : { detected: listed ? 1 : 0 }),
    { detected: 1, chosen: null },
  );
}

/** A member's list: what it names is listed (added when new), the rest removed from the list. */
export function saveChosen(db: Db, repositoryId: number, chosen: PackageRef[]): Promise<void> {
  // A member's own addition taken off again leaves nothing to remember.
  return mergePackages(
    db,
    repositoryId,
    chosen,
    (row, listed) => (!listed && row.detected === 0 ? null : { chosen: listed ? 1 : 0 }),
    { detected: 0, chosen: 1 },
  );
}

async function deletePackage(db: Db, row: Pick<PackageRow, 'repository_id' | 'ecosystem' | 'name'>) {
  await db
    .deleteFrom('repository_packages')
    .where('repository_id', '=', row.repository_id)
    .where('ecosystem', '=', row.ecosystem)
    .where('name', '=', row.name)
    .execute();
}

export async function markPackagesRead(db: Db, repositoryId: number, refs: PackageRef[], at: string) {
  for (const ref of refs) await packageRow(db, repositoryId, ref).set({ read_at: at }).execute();
}

/** Listed packages of every repository (gone ones left alone), for the daily incremental read. */
/** The listed packages of these repositories that were never read from GitHub's database. */
export function unreadPackagesOf(db: Db, repositoryIds: number[]) {
  if (repositoryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('repository_packages')
    .select(['repository_id', 'ecosystem', 'name'])
    .where('repository_id', 'in', repositoryIds)
    .where('read_at', 'is', null)
    .where((eb) => eb.or([eb('chosen', '=', 1), eb.and([eb('chosen', 'is', null), eb('detected', '=', 1)])]))
    .orderBy('repository_id')
    .orderBy('ecosystem')
    .orderBy('name')
    .execute();
}

export function listedPackagesAfter(db: Db, after: { repositoryId: number; key: string }, limit: number) {
  return db
    .selectFrom('repository_packages')
    .innerJoin('repositories', 'repositories.id', 'repository_packages.repository_id')
    .select([
      'repository_packages.repository_id',
      'repository_packages.ecosystem',
      'repository_packages.name',
      'repository_packages.read_at',
    ])
    .where('repositories.gone', '=', 0)
    .where((eb) =>
      eb.or([
        eb('repository_packages.chosen', '=', 1),
        eb.and([eb('repository_packages.chosen', 'is', null), eb('repository_packages.detected', '=', 1)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('repository_packages.repository_id', '>', after.repositoryId),
        eb.and([
          eb('repository_packages.repository_id', '=', after.repositoryId),
          eb(sql<string>`repository_packages.ecosystem || ':' || repository_packages.name`, '>', after.key),
        ]),
      ]),
    )
    .orderBy('repository_packages.repository_id')
    .orderBy(sql`repository_packages.ecosystem || ':' || repository_packages.name`)
    .limit(limit)
    .execute();
}

export function findRead(db: Db, repositoryId: number) {
  return db
    .selectFrom('repository_advisory_reads')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .executeTakeFirst();
}

export async function saveRead(db: Db, repositoryId: number, etag: string | null, at: string) {
  await db
    .insertInto('repository_advisory_reads')
    .values({ repository_id: repositoryId, etag, read_at: at })
    .onConflict((oc) => oc.column('repository_id').doUpdateSet({ etag, read_at: at }))
    .execute();
}

export function listAdvisories(db: Db, repositoryId: number): Promise<AdvisoryRow[]> {
  return db
    .selectFrom('repository_advisories')
    .selectAll()
    .where('repository_id', '=', repositoryId)
    .orderBy('published_at', 'desc')
    .orderBy('ghsa_id')
    .execute();
}

export async function deleteAdvisory(db: Db, repositoryId: number, ghsaId: string): Promise<void> {
  await db
    .deleteFrom('repository_advisories')
    .where('repository_id', '=', repositoryId)
    .where('ghsa_id', '=', ghsaId)
    .execute();
}

/** Whether any advisory is stored for the repository (a sync judges them again only then). */
export async function hasAdvisories(db: Db, repositoryId: number): Promise<boolean> {
  const row = await db
    .selectFrom('repository_advisories')
    .select('ghsa_id')
    .where('repository_id', '=', repositoryId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function saveAdvisory(db: Db, row: Insertable<RepositoryAdvisoriesTable>): Promise<void> {
  const { repository_id: _r, ghsa_id: _g, found_at: _f, source: _s, ...changes } = row;
  await db
    .insertInto('repository_advisories')
    .values(row)
    .onConflict((oc) => oc.columns(['repository_id', 'ghsa_id']).doUpdateSet(changes))
    .execute();
}

export async function setJudgement(
  db: Db,
  repositoryId: number,
  ghsaId: string,
  open: boolean,
  fixedInVersionId: number | null,
): Promise<void> {
  await db
    .updateTable('repository_advisories')
    .set({ open: open ? 1 : 0, fixed_in_version_id: fixedInVersionId })
    .where('repository_id', '=', repositoryId)
    .where('ghsa_id', '=', ghsaId)
    .execute();
}

export function trackedVersions(db: Db, repositoryId: number): Promise<TrackedVersion[]> {
  return db
    .selectFrom('versions')
    .select(['id', 'version_number'])
    .where('repository_id', '=', repositoryId)
    .execute();
}

/**
 * The open advisories by severity on the repository's row, and the most severe one's rank
 * (`advisory_level`: 0 none, 1 unknown … 5 critical) for the list's filter.
 */
export async function keepCountsOnRow(db: Db, repositoryId: number): Promise<void> {
  const count = (severity: string) =>
    sql<number>`(select count(*) from repository_advisories a where a.repository_id = ${repositoryId} and a.open = 1 and a.severity = ${severity})`;
  const level = sql<number>`(select coalesce(max(case a.severity when 'critical' then 5 when 'high' then 4 when 'medium' then 3 when 'low' then 2 else 1 end), 0) from repository_advisories a where a.repository_id = ${repositoryId} and a.open = 1)`;
  await db
    .updateTable('repositories')
    .set({
      advisories_critical: count('critical'),
      advisories_high: count('high'),
      advisories_medium: count('medium'),
      advisories_low: count('low'),
      advisories_unknown: count('unknown'),
      advisory_level: level,
    })
    .where('id', '=', repositoryId)
    .execute();
}

/**
 * The open advisories (the `open` flag this module keeps: not withdrawn, no tracked version fixes
 * it) of these severities on these repositories, by repository then GHSA id.
 */
export function openAdvisoriesOf(
  db: Db,
  repositoryIds: readonly number[],
  severities: readonly AdvisorySeverity[],
): Promise<{ repository_id: number; ghsa_id: string }[]> {
  return db
    .selectFrom('repository_advisories')
    .select(['repository_id', 'ghsa_id'])
    .where('open', '=', 1)
    .where('severity', 'in', [...severities])
    .where('repository_id', 'in', [...repositoryIds])
    .orderBy('repository_id')
    .orderBy('ghsa_id')
    .execute();
}
