import { type Insertable, type Kysely, sql } from 'kysely';
import { inTransaction } from '../../db/database.ts';
import type {
  Database,
  EmailTokenPurpose,
  EmailTokensTable,
  RefreshTokensTable,
  UserRow,
  UsersTable,
} from '../../db/schema.ts';

type Db = Kysely<Database>;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sign-in accepts either the e-mail or the username, both case-insensitively. */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  const column = value.includes('@') ? sql`lower(email)` : sql`lower(username)`;
  return db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.trim().toLowerCase())
    .executeTakeFirst();
}

/**
 * Takes the first-admin path for `userId`, just inserted in the caller's transaction: true for
 * exactly one account ever. The singleton row's primary key serialises simultaneous first
 * registrations (on PostgreSQL the second insert waits for the first transaction, then does
 * nothing); `not exists` keeps an instance that has users but no row (restored, or migrated
 * before the row existed) from making a newcomer its admin.
 */
export async function claimFirstAdmin(db: Db, userId: number, now: string): Promise<boolean> {
  const claimed = await db
    .insertInto('instance_bootstrap')
    .columns(['id', 'user_id', 'claimed_at'])
    .expression(
      db
        .selectNoFrom([
          sql<number>`1`.as('id'),
          sql<number>`cast(${userId} as integer)`.as('user_id'),
          sql<string>`cast(${now} as varchar(40))`.as('claimed_at'),
        ])
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('users').select('id').where('id', '!=', userId))),
        ),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** A new row; `now` stamps both `created_at` and `updated_at`. */
export type NewUser = Omit<Insertable<UsersTable>, 'created_at' | 'updated_at'> & { now: string };

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const { now, ...fields } = user;
  return db
    .insertInto('users')
    .values({ ...fields, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateUser(
  db: Db,
  id: number,
  changes: Partial<Omit<UserRow, 'id' | 'created_at'>> & { updated_at: string },
): Promise<UserRow | undefined> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Invalidates every access token of the user now (they carry the old version). */
export async function bumpTokenVersion(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .execute();
}

// ---- refresh tokens ------------------------------------------------------------------------

export async function insertRefreshToken(db: Db, token: Insertable<RefreshTokensTable>): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute();
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks a token used only if nobody used it first; true when this caller won. */
export async function claimRefreshToken(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeFamily(db: Db, familyId: string, now: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every session of the user, except the family `keepFamilyId` when given. */
export async function revokeUserFamilies(
  db: Db,
  userId: number,
  now: string,
  keepFamilyId?: string,
): Promise<void> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepFamilyId) query = query.where('family_id', '!=', keepFamilyId);
  await query.execute();
}

/** A user's rows whose family outlived its absolute lifetime: nothing can use them any more. */
export async function deleteExpiredRefreshTokens(db: Db, userId: number, now: string): Promise<void> {
  await db.deleteFrom('refresh_tokens').where('user_id', '=', userId).where('expires_at', '<', now).execute();
}

// ---- e-mail tokens -------------------------------------------------------------------------

/** A new link voids the previous ones of the same purpose; in the caller's transaction when it passes one. */
export async function replaceEmailToken(db: Db, token: Insertable<EmailTokensTable>): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('email_tokens')
      .set({ used_at: token.created_at })
      .where('user_id', '=', token.user_id)
      .where('purpose', '=', token.purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx.insertInto('email_tokens').values(token).execute();
  });
}

export async function findEmailToken(db: Db, purpose: EmailTokenPurpose, tokenHash: string) {
  return db
    .selectFrom('email_tokens')
    .selectAll()
    .where('purpose', '=', purpose)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Consumes a token with one conditional update, so of two parallel uses exactly one wins
 * (docs/security.md#b2). Returns the user id, or undefined when it was used, expired or unknown.
 */
export async function consumeEmailToken(
  db: Db,
  purpose: EmailTokenPurpose,
  tokenHash: string,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('purpose', '=', purpose)
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export async function voidEmailTokens(
  db: Db,
  userId: number,
  purpose: EmailTokenPurpose,
  now: string,
): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
