import { type Kysely, type SelectQueryBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { AdminUserFlag } from '#shared/schemas/admin.ts';
import type { Database, Flag, UserRow } from '../../db/schema.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type AdminUserRow = UserRow & { repository_count: number; identity_count: number };

/**
 * Users with the number of repositories each added (admins see private ones too) and of the
 * single sign-on identities linked to them (their sign-in methods).
 */
function usersWithRepositoryCount(db: Db) {
  return db
    .selectFrom('users')
    .selectAll('users')
    .select((eb) =>
      eb
        .selectFrom('repositories')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('repositories.user_id', '=', 'users.id')
        .as('repository_count'),
    )
    .select((eb) =>
      eb
        .selectFrom('user_identities')
        .select(eb.fn.countAll<number>().as('count'))
        .whereRef('user_identities.user_id', '=', 'users.id')
        .as('identity_count'),
    );
}

function toAdminRow<T extends UserRow & { repository_count: unknown; identity_count: unknown }>(
  row: T,
): AdminUserRow {
  return {
    ...row,
    repository_count: Number(row.repository_count ?? 0),
    identity_count: Number(row.identity_count ?? 0),
  };
}

/** `%term%` for LIKE with `\` as the escape character, so `_` and `%` match themselves. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export interface UserFilter {
  search?: string;
  isActive?: boolean;
}

function filtered<O>(query: SelectQueryBuilder<Database, 'users', O>, filter: UserFilter) {
  let result = query;
  if (filter.search) {
    const pattern = likePattern(filter.search);
    result = result.where((eb) =>
      eb.or(
        (['users.username', 'users.email', 'users.first_name', 'users.last_name'] as const).map(
          (column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  if (filter.isActive !== undefined) result = result.where('users.is_active', '=', filter.isActive ? 1 : 0);
  return result;
}

export async function listUsers(
  db: Db,
  filter: UserFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const rows = await filtered(usersWithRepositoryCount(db), filter)
    .orderBy('users.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await filtered(
    db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('count')),
    filter,
  ).executeTakeFirstOrThrow();
  return { rows: rows.map(toAdminRow), total: Number(count.count) };
}

/** Every account, oldest first (the command line's list). */
export async function listAllUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('id').execute();
}

/** An active, verified administrator from now on. */
export async function promoteUser(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_admin: 1, is_active: 1, is_verified: 1, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function findAdminUser(db: Db, id: number): Promise<AdminUserRow | undefined> {
  const row = await usersWithRepositoryCount(db).where('users.id', '=', id).executeTakeFirst();
  return row ? toAdminRow(row) : undefined;
}

/**
 * Locks every active admin row until the transaction ends (PostgreSQL), so two admins demoting
 * or deactivating each other in parallel are serialised and the second sees the first's
 * change. SQLite serialises writers by itself.
 */
export async function lockActiveAdmins(trx: Transaction<Database>): Promise<number[]> {
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('is_admin', '=', 1)
    .where('is_active', '=', 1)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

export async function countOtherActiveAdmins(db: Db, excludeId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('is_admin', '=', 1)
    .where('is_active', '=', 1)
    .where('id', '!=', excludeId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Sets one flag. With `keepAnAdmin`, the update happens only if another active admin remains
 * after it, checked in the same statement; the answer says whether a row changed.
 */
export async function setUserFlag(
  db: Db,
  id: number,
  flag: AdminUserFlag,
  value: Flag,
  now: string,
  keepAnAdmin: boolean,
): Promise<boolean> {
  let query = db
    .updateTable('users')
    .set({ [flag]: value, updated_at: now })
    .where('id', '=', id);
  if (keepAnAdmin) {
    query = query.where((eb) =>
      eb(
        eb
          .selectFrom('users as other')
          .select(eb.fn.countAll<number>().as('count'))
          .where('other.is_admin', '=', 1)
          .where('other.is_active', '=', 1)
          .where('other.id', '!=', id),
        '>',
        0,
      ),
    );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface UserCounts {
  total: number;
  active: number;
  verified: number;
  admin: number;
  recent: number;
}

export async function countUsersByState(db: Db, recentSince: string): Promise<UserCounts> {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      sql<number>`coalesce(sum(case when is_active = 1 then 1 else 0 end), 0)`.as('active'),
      sql<number>`coalesce(sum(case when is_verified = 1 then 1 else 0 end), 0)`.as('verified'),
      sql<number>`coalesce(sum(case when is_admin = 1 then 1 else 0 end), 0)`.as('admin'),
      sql<number>`coalesce(sum(case when created_at >= ${recentSince} then 1 else 0 end), 0)`.as('recent'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    active: Number(row.active),
    verified: Number(row.verified),
    admin: Number(row.admin),
    recent: Number(row.recent),
  };
}

export async function countRepositories(
  db: Db,
): Promise<{ total: number; users_with_repos: number; total_stars: number }> {
  const row = await db
    .selectFrom('repositories')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      sql<number>`count(distinct user_id)`.as('users_with_repos'),
      sql<number>`coalesce(sum(stars), 0)`.as('total_stars'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    users_with_repos: Number(row.users_with_repos),
    total_stars: Number(row.total_stars),
  };
}
