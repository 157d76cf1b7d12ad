import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * Each repository's comment and version counts kept on its row by triggers (docs/decisions.md,
 * "CSV export"), so lists, pages and the export read them with the row instead of counting per
 * page: a 100,000-row export spent ~150 ms (SQLite) in fifty queries of 4,000 parameters each.
 * Every insert and delete of a comment or version moves its repository's count in the same
 * transaction, whatever wrote it (the services, undo-delete putting rows back, a restore).
 */

const COUNTED = [
  { table: 'comments', column: 'comment_count' },
  { table: 'versions', column: 'version_count' },
] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, column } of COUNTED) {
    await db.schema
      .alterTable('repositories')
      .addColumn(column, 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`update repositories set ${sql.raw(column)} =
      (select count(*) from ${sql.raw(table)} c where c.repository_id = repositories.id)`.execute(db);
    const changes = [
      { event: 'insert', row: 'new', sign: '+' },
      { event: 'delete', row: 'old', sign: '-' },
    ];
    for (const { event, row, sign } of changes) {
      const name = `${table}_count_${event}`;
      const update = sql`update repositories set ${sql.raw(column)} = ${sql.raw(column)} ${sql.raw(sign)} 1
        where id = ${sql.raw(row)}.repository_id`;
      if (isPostgres(db)) {
        await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
          begin ${update}; return null; end $$`.execute(db);
        await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)}
          for each row execute function ${sql.raw(name)}()`.execute(db);
      } else {
        await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.raw(table)} begin
          ${update}; end`.execute(db);
      }
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const { table, column } of COUNTED) {
    for (const event of ['insert', 'delete']) {
      const name = `${table}_count_${event}`;
      await sql`drop trigger ${sql.raw(name)}${sql.raw(isPostgres(db) ? ` on ${table}` : '')}`.execute(db);
      if (isPostgres(db)) await sql`drop function ${sql.raw(name)}()`.execute(db);
    }
    await db.schema.alterTable('repositories').dropColumn(column).execute();
  }
}
