import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ApiTokensTable } from '../../db/schema-api-tokens.ts';

const LISTED = [
  'id',
  'name',
  'scope',
  'prefix',
  'created_at',
  'expires_at',
  'last_used_at',
  'last_used_ip',
] as const;

/** A member's tokens, newest first, without their hashes. */
export function listApiTokens(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('api_tokens')
    .select(LISTED)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function countApiTokens(db: Kysely<Database>, userId: number): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export function insertApiToken(db: Kysely<Database>, row: Insertable<ApiTokensTable>) {
  return db.insertInto('api_tokens').values(row).returning(LISTED).executeTakeFirstOrThrow();
}

/** The token a presented value hashes to, with its owner's flags (one read per request). */
export function findApiTokenByHash(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.scope',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'api_tokens.last_used_ip',
      'users.is_active',
      'users.is_admin',
      'users.is_verified',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Last use, written only when the stored one is older than `staleBefore`: once a minute at most. */
export async function touchApiToken(
  db: Kysely<Database>,
  id: number,
  at: string,
  ip: string,
  staleBefore: string,
): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ last_used_at: at, last_used_ip: ip })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

export async function deleteApiToken(db: Kysely<Database>, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteUserApiTokens(db: Kysely<Database>, userId: number): Promise<number> {
  const result = await db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The member's tokens that expired before `now`: swept when another is created. */
export async function deleteExpiredApiTokens(db: Kysely<Database>, userId: number, now: string) {
  await db
    .deleteFrom('api_tokens')
    .where('user_id', '=', userId)
    .where('expires_at', 'is not', null)
    .where('expires_at', '<=', now)
    .execute();
}

/** A demoted member's admin tokens become write tokens (the request check refuses them anyway). */
export async function downgradeAdminApiTokens(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('api_tokens')
    .set({ scope: 'write' })
    .where('user_id', '=', userId)
    .where('scope', '=', 'admin')
    .execute();
}
