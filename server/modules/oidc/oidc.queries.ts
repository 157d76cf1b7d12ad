import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type {
  OidcCodePurpose,
  OidcExchangeCodesTable,
  OidcSessionsTable,
  OidcSignInStatesTable,
} from '../../db/schema-oidc.ts';

type Db = Kysely<Database>;

/** What the state keeps while the person is at the provider (sealed in the row). */
export interface StateSecrets {
  nonce: string;
  verifier: string;
  return_to: string | null;
  remember_me: boolean;
}

/** What a one-time code carries (sealed in the row). */
export interface CodePayload {
  id_token: string;
  return_to: string | null;
  remember_me: boolean;
  /** `link` codes: the identity to link once the password is proven, and its groups. */
  issuer?: string;
  subject?: string;
  email?: string;
  groups?: string[];
}

/** How many sign-in events the admin section keeps; older ones go with each insert. */
export const SIGN_IN_EVENTS_KEPT = 200;

// ---- identities ------------------------------------------------------------------------------

export function findIdentity(db: Db, issuer: string, subject: string) {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export function listIdentities(db: Db, userId: number) {
  return db
    .selectFrom('user_identities')
    .select(['id', 'issuer', 'email', 'created_at', 'last_sign_in_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export async function insertIdentity(
  db: Db,
  row: { user_id: number; issuer: string; subject: string; email: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({
      user_id: row.user_id,
      issuer: row.issuer,
      subject: row.subject,
      email: row.email,
      created_at: row.now,
      last_sign_in_at: row.now,
    })
    .execute();
}

export async function touchIdentity(db: Db, id: number, email: string | null, now: string): Promise<void> {
  await db
    .updateTable('user_identities')
    .set(email === null ? { last_sign_in_at: now } : { last_sign_in_at: now, email })
    .where('id', '=', id)
    .execute();
}

// ---- sign-ins in flight ----------------------------------------------------------------------

export async function insertSignInState(db: Db, row: Insertable<OidcSignInStatesTable>): Promise<void> {
  await db.insertInto('oidc_sign_in_states').values(row).execute();
}

/** Takes the state out (single use): the row, whoever reads it first; undefined afterwards. */
export async function takeSignInState(db: Db, stateHash: string) {
  return db
    .deleteFrom('oidc_sign_in_states')
    .where('state_hash', '=', stateHash)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteExpiredSignInStates(db: Db, now: string): Promise<void> {
  await db.deleteFrom('oidc_sign_in_states').where('expires_at', '<=', now).execute();
}

// ---- one-time codes --------------------------------------------------------------------------

export async function insertExchangeCode(db: Db, row: Insertable<OidcExchangeCodesTable>): Promise<void> {
  await db.insertInto('oidc_exchange_codes').values(row).execute();
}

export function findExchangeCode(db: Db, codeHash: string, purpose: OidcCodePurpose) {
  return db
    .selectFrom('oidc_exchange_codes')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Spends a code: true for exactly one caller, and only while it is unused and unexpired. */
export async function spendExchangeCode(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('oidc_exchange_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Codes past their expiry (spent ones too: a replay finds the row until then, and is refused). */
export async function deleteExpiredExchangeCodes(db: Db, now: string): Promise<void> {
  await db.deleteFrom('oidc_exchange_codes').where('expires_at', '<=', now).execute();
}

// ---- sessions from single sign-on ------------------------------------------------------------

export async function insertOidcSession(db: Db, row: Insertable<OidcSessionsTable>): Promise<void> {
  await db.insertInto('oidc_sessions').values(row).execute();
}

export function findOidcSession(db: Db, familyId: string) {
  return db.selectFrom('oidc_sessions').selectAll().where('family_id', '=', familyId).executeTakeFirst();
}

export async function deleteOidcSession(db: Db, familyId: string): Promise<void> {
  await db.deleteFrom('oidc_sessions').where('family_id', '=', familyId).execute();
}

export async function deleteExpiredOidcSessions(db: Db, userId: number, now: string): Promise<void> {
  await db.deleteFrom('oidc_sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
}

// ---- the admin section's events ---------------------------------------------------------------

export async function insertSignInEvent(
  db: Db,
  row: { at: string; reason: string; detail: string; user_id: number | null },
): Promise<void> {
  const inserted = await db
    .insertInto('sign_in_events')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom('sign_in_events')
    .where('id', '<=', inserted.id - SIGN_IN_EVENTS_KEPT)
    .execute();
}

export function listSignInEvents(db: Db, limit: number) {
  return db
    .selectFrom('sign_in_events')
    .leftJoin('users', 'users.id', 'sign_in_events.user_id')
    .select([
      'sign_in_events.id',
      'sign_in_events.at',
      'sign_in_events.reason',
      'sign_in_events.detail',
      'users.username',
    ])
    .orderBy('sign_in_events.id', 'desc')
    .limit(limit)
    .execute();
}
