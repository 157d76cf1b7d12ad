import { type Kysely, sql } from 'kysely';

// Migrations are written against Kysely<any> on purpose: they describe history, not today's types.
// biome-ignore lint/suspicious/noExplicitAny: see above
export async function up(db: Kysely<any>): Promise<void> {
  // Version numbers become unique per repository, trimmed and in any case (docs/product.md#version-tracker).
  // Existing duplicates keep their rows: the oldest keeps its number, later ones get ' (2)', ' (3)'…
  const rows: { id: number; repository_id: number; version_number: string }[] = await db
    .selectFrom('versions')
    .select(['id', 'repository_id', 'version_number'])
    .orderBy('repository_id')
    .orderBy('id')
    .execute();
  const key = (repositoryId: number, number: string) => `${repositoryId}\u0000${number.trim().toLowerCase()}`;
  const taken = new Set(rows.map((row) => key(row.repository_id, row.version_number)));
  const seen = new Set<string>();
  for (const row of rows) {
    const own = key(row.repository_id, row.version_number);
    if (!seen.has(own)) {
      seen.add(own);
      continue;
    }
    let suffix = 2;
    let renamed = `${row.version_number.trim()} (${suffix})`;
    while (taken.has(key(row.repository_id, renamed))) renamed = `${row.version_number.trim()} (${++suffix})`;
    taken.add(key(row.repository_id, renamed));
    seen.add(key(row.repository_id, renamed));
    await db.updateTable('versions').set({ version_number: renamed }).where('id', '=', row.id).execute();
  }
  await sql`create unique index versions_repository_number on versions (repository_id, lower(trim(version_number)))`.execute(
    db,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: see above
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('versions_repository_number').execute();
}
