import { type Kysely, sql } from 'kysely';

/**
 * Security advisories (docs/product.md#advisories, docs/architecture.md#advisories): the packages
 * a repository publishes (detected from its root manifests, edited by members), the advisories
 * found for it (one row per GHSA id, whichever source found it), when each source was last read,
 * the open ones counted by severity on the repository's row for the list, and the notification
 * rules' severity floor.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repository_packages')
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('ecosystem', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    // 1 when the last manifest read found it.
    .addColumn('detected', 'integer', (col) => col.notNull().defaultTo(0))
    // A member's word, kept across re-detection: 1 listed, 0 removed, null follow detection.
    .addColumn('chosen', 'integer')
    // When GitHub's advisory database was last read for it (null: never, so the first read is not news).
    .addColumn('read_at', 'text')
    .addPrimaryKeyConstraint('repository_packages_pk', ['repository_id', 'ecosystem', 'name'])
    .execute();

  await db.schema
    .createTable('repository_advisory_reads')
    .addColumn('repository_id', 'integer', (col) =>
      col.primaryKey().references('repositories.id').onDelete('cascade'),
    )
    // The repository's own advisories: the list's ETag, and when it was last read (null: never).
    .addColumn('etag', 'text')
    .addColumn('read_at', 'text')
    .execute();

  await db.schema
    .createTable('repository_advisories')
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('ghsa_id', 'text', (col) => col.notNull())
    .addColumn('cve_id', 'text')
    .addColumn('severity', 'text', (col) => col.notNull())
    .addColumn('summary', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('published_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addColumn('withdrawn_at', 'text')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('package_ecosystem', 'text')
    .addColumn('package_name', 'text')
    .addColumn('vulnerable_range', 'text')
    .addColumn('patched_versions', 'text')
    .addColumn('fixed_in_version_id', 'integer', (col) => col.references('versions.id').onDelete('set null'))
    .addColumn('open', 'integer', (col) => col.notNull())
    .addColumn('found_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('repository_advisories_pk', ['repository_id', 'ghsa_id'])
    .execute();

  await db.schema
    .alterTable('notification_rules')
    .addColumn('min_severity', 'text', (col) => col.notNull().defaultTo('high'))
    .execute();

  for (const severity of ['critical', 'high', 'medium', 'low', 'unknown']) {
    await db.schema
      .alterTable('repositories')
      .addColumn(`advisories_${severity}`, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  }
  // The most severe open advisory's rank (0 none, 1 unknown … 5 critical): `advisories=<severity>`.
  await db.schema
    .alterTable('repositories')
    .addColumn('advisory_level', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`create index repositories_advisory_level_idx on repositories (advisory_level, id)`.execute(db);
}
