import { type Kysely, sql } from 'kysely';
import { withIdColumn } from '../migration-helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  // One row per GitHub repository in the team catalogue (docs/product.md#roles-and-visibility), unique by
  // full name (case-insensitive) and by GitHub's numeric id.
  await withIdColumn(db, db.schema.createTable('repositories'))
    .addColumn('full_name', 'varchar(201)', (col) => col.notNull())
    .addColumn('github_id', 'bigint', (col) => col.notNull().unique())
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('name', 'varchar(100)', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('url', 'varchar(300)', (col) => col.notNull())
    .addColumn('license', 'varchar(100)', (col) => col.notNull().defaultTo(''))
    .addColumn('topics', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tags', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('stars', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('forks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('issues', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('commits', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('contributors', 'integer', (col) => col.notNull().defaultTo(0))
    // 1 when GitHub refused to count (403 too large): shown as "<contributors>+".
    .addColumn('contributors_capped', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('language', 'varchar(100)')
    .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('private', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('gone', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('default_branch', 'varchar(255)')
    .addColumn('last_commit', 'varchar(40)')
    .addColumn('last_synced', 'varchar(40)')
    // The newest commits as JSON, and GitHub's ETags per endpoint for conditional requests.
    .addColumn('recent_commits', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('etags', 'text', (col) => col.notNull().defaultTo('{}'))
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('repositories_full_name_lower_idx')
    .on('repositories')
    .unique()
    .expression(sql`lower(full_name)`)
    .execute();
  await db.schema.createIndex('repositories_user_idx').on('repositories').column('user_id').execute();

  // Names a repository had before a rename or transfer, so old ids keep resolving.
  await db.schema
    .createTable('repository_aliases')
    .addColumn('full_name_lower', 'varchar(201)', (col) => col.primaryKey())
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .execute();

  // Members whose own token proved they can read a private repository (docs/product.md#private-repositories).
  await db.schema
    .createTable('repository_access')
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('granted_at', 'varchar(40)', (col) => col.notNull())
    .addPrimaryKeyConstraint('repository_access_pk', ['repository_id', 'user_id'])
    .execute();

  await withIdColumn(db, db.schema.createTable('comments'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('author', 'varchar(100)', (col) => col.notNull())
    .addColumn('comment', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('comments_repository_idx').on('comments').column('repository_id').execute();

  // A version snapshot keeps the eight compared metrics as they were when it was added.
  await withIdColumn(db, db.schema.createTable('versions'))
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('version_number', 'varchar(100)', (col) => col.notNull())
    .addColumn('release_date', 'varchar(10)')
    .addColumn('description', 'text')
    .addColumn('snapshot', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(40)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('versions_repository_idx').on('versions').column('repository_id').execute();

  // One row per repository per day, written at each successful sync: the history chart.
  await db.schema
    .createTable('repository_metrics')
    .addColumn('repository_id', 'integer', (col) =>
      col.notNull().references('repositories.id').onDelete('cascade'),
    )
    .addColumn('day', 'varchar(10)', (col) => col.notNull())
    .addColumn('stars', 'integer', (col) => col.notNull())
    .addColumn('forks', 'integer', (col) => col.notNull())
    .addColumn('issues', 'integer', (col) => col.notNull())
    .addColumn('commits', 'integer', (col) => col.notNull())
    .addColumn('contributors', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('repository_metrics_pk', ['repository_id', 'day'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'repository_metrics',
    'versions',
    'comments',
    'repository_access',
    'repository_aliases',
    'repositories',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
