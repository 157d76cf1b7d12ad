import type { Kysely } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

/**
 * The radar (docs/product.md#the-radar, docs/architecture.md#modules): published editions, each
 * with its own copy of the quadrant names and of every blip and retired entry, and the at-risk
 * marks (one `adopted_at_risk` event per repository and cause).
 *
 * An edition's entries outlive their repository: `repository_id` has no foreign key (ids are
 * never reused: AUTOINCREMENT on SQLite, identity on PostgreSQL), so deleting a repository
 * deletes none of them and an undone deletion finds them linked again. The marks belong to their
 * repository and cascade with it.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('radar_editions'))
    .addColumn('name', 'varchar(60)', (col) => col.notNull().unique())
    .addColumn('published_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('published_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    // The username when published, kept when the account is deleted.
    .addColumn('published_by_name', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('radar_edition_quadrants')
    .addColumn('edition_id', 'integer', (col) =>
      col.notNull().references('radar_editions.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('key', 'varchar(40)', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('radar_edition_quadrants_pk', ['edition_id', 'position'])
    .execute();

  await withIdColumn(db, db.schema.createTable('radar_edition_entries'))
    .addColumn('edition_id', 'integer', (col) =>
      col.notNull().references('radar_editions.id').onDelete('cascade'),
    )
    // No foreign key: the entry stays when the repository is deleted (see above).
    .addColumn('repository_id', 'integer')
    // The repository's private flag when published: who may read the entry once it is gone.
    .addColumn('private', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('full_name', 'text', (col) => col.notNull())
    .addColumn('quadrant', 'varchar(40)', (col) => col.notNull())
    .addColumn('quadrant_name', 'text', (col) => col.notNull())
    // adopt, trial, assess, hold or retired.
    .addColumn('status', 'varchar(10)', (col) => col.notNull())
    .addColumn('rationale', 'text', (col) => col.notNull())
    .addColumn('health_grade', 'varchar(10)')
    // JSON array of the at-risk causes when published.
    .addColumn('at_risk_causes', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createIndex('radar_edition_entries_edition')
    .on('radar_edition_entries')
    .columns(['edition_id', 'id'])
    .execute();

  await db.schema
    .createTable('radar_at_risk_marks')
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    // health_at_risk, archived or advisory.
    .addColumn('cause', 'varchar(20)', (col) => col.notNull())
    .addColumn('marked_at', 'varchar(40)', (col) => col.notNull())
    .addPrimaryKeyConstraint('radar_at_risk_marks_pk', ['repository_id', 'cause'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'radar_at_risk_marks',
    'radar_edition_entries',
    'radar_edition_quadrants',
    'radar_editions',
  ])
    await db.schema.dropTable(table).execute();
}
