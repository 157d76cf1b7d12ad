import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../migration-helpers.ts';

/**
 * The catalogue's unfiltered totals kept by the database (docs/decisions.md, "Totals kept by
 * triggers"): one row per value of `repositories.private` with how many rows have it, changed
 * by triggers in the same transaction as the rows. The list's first page answers its exact
 * total from these instead of counting 100,000 index entries (about 5 ms on PostgreSQL, the
 * larger half of the page). On PostgreSQL inserts and deletes are counted once a statement
 * (transition tables: a restore or a seed inserts 500 rows a statement), a change of `private`
 * once a row; SQLite has only row triggers.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations describe history, not today's types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repository_totals')
    .addColumn('private', 'integer', (col) => col.primaryKey())
    .addColumn('total', 'integer', (col) => col.notNull())
    .execute();
  await sql`insert into repository_totals (private, total)
    select 0, (select count(*) from repositories where private = 0)
    union all select 1, (select count(*) from repositories where private = 1)`.execute(db);
  // Inserts add and deletes take away the rows they write (`new`) or remove (`old`).
  const events = [
    { event: 'insert', name: 'inserted', rows: 'new', sign: '+' },
    { event: 'delete', name: 'deleted', rows: 'old', sign: '-' },
  ];
  if (isPostgres(db)) {
    // Once a statement, its rows counted by privacy.
    for (const { event, name, rows, sign } of events) {
      await sql`create function ${sql.raw(`repository_totals_${name}`)}() returns trigger language plpgsql as $$
        begin
          update repository_totals t set total = t.total ${sql.raw(sign)} changed.count
            from (select private, count(*) as count from ${sql.raw(`${name}_rows`)} group by private) changed
            where t.private = changed.private;
          return null;
        end $$`.execute(db);
      await sql`create trigger ${sql.raw(`repository_totals_${event}`)} after ${sql.raw(event)} on repositories
        referencing ${sql.raw(rows)} table as ${sql.raw(`${name}_rows`)} for each statement
        execute function ${sql.raw(`repository_totals_${name}`)}()`.execute(db);
    }
    await sql`create function repository_totals_moved() returns trigger language plpgsql as $$
      begin
        update repository_totals set total = total - 1 where private = old.private;
        update repository_totals set total = total + 1 where private = new.private;
        return null;
      end $$`.execute(db);
    await sql`create trigger repository_totals_update after update of private on repositories
      for each row when (old.private is distinct from new.private)
      execute function repository_totals_moved()`.execute(db);
    return;
  }
  for (const { event, rows, sign } of events) {
    await sql`create trigger ${sql.raw(`repository_totals_${event}`)} after ${sql.raw(event)} on repositories begin
        update repository_totals set total = total ${sql.raw(sign)} 1 where private = ${sql.raw(rows)}.private;
      end`.execute(db);
  }
  await sql`create trigger repository_totals_update after update of private on repositories
    when old.private is not new.private begin
      update repository_totals set total = total - 1 where private = old.private;
      update repository_totals set total = total + 1 where private = new.private;
    end`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`repository_totals_${event}`)}${sql.raw(isPostgres(db) ? ' on repositories' : '')}`.execute(
      db,
    );
  }
  if (isPostgres(db)) {
    for (const name of ['inserted', 'deleted', 'moved'])
      await sql`drop function ${sql.raw(`repository_totals_${name}`)}()`.execute(db);
  }
  await db.schema.dropTable('repository_totals').execute();
}
