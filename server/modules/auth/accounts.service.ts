import type { Kysely } from 'kysely';
import type { RegisterBody, User } from '#shared/schemas/auth.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database, Flag, UserRow } from '../../db/schema.ts';
import type { SharedQuota } from '../../github/quota.ts';
import { conflict } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { randomToken } from '../../lib/secret-box.ts';
import {
  bumpTokenVersion,
  claimFirstAdmin,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  revokeUserFamilies,
  updateUser,
} from './auth.queries.ts';
import { presentUser } from './user-presenter.ts';

export const ACCOUNT_MESSAGES = {
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
} as const;

export interface AccountsDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The shared GitHub quota every presented user carries. */
  quota: SharedQuota;
}

export type UserChanges = Parameters<typeof updateUser>[2];

/**
 * The accounts (`users` rows) as every module reaches them: found, presented, changed, their
 * sessions ended, and created — the same way for sign-up and for the command line.
 */
export class AccountsService {
  readonly #deps: AccountsDeps;

  constructor(deps: AccountsDeps) {
    this.#deps = deps;
  }

  /** The server token's last seen quota, shown with every user. */
  get sharedQuotaRemaining(): number | null {
    return this.#deps.quota.remaining;
  }

  /** The only way a user row leaves the server (never the hash or a sealed secret). */
  present(row: UserRow): User {
    return presentUser(row, this.sharedQuotaRemaining);
  }

  /** `db` is the caller's transaction when the read must see its own writes. */
  find(id: number, db: Kysely<Database> = this.#deps.db): Promise<UserRow | undefined> {
    return findUserById(db, id);
  }

  /** By username or e-mail, case-insensitively, as sign-in reads them. */
  findByLogin(login: string): Promise<UserRow | undefined> {
    return findUserByLogin(this.#deps.db, login);
  }

  findByEmail(email: string, db: Kysely<Database> = this.#deps.db): Promise<UserRow | undefined> {
    return findUserByEmail(db, email);
  }

  findByUsername(username: string, db: Kysely<Database> = this.#deps.db): Promise<UserRow | undefined> {
    return findUserByUsername(db, username);
  }

  /**
   * The instance's first-admin path for an account just inserted in the caller's transaction:
   * true for exactly one account ever (sign-up's and single sign-on's first account).
   */
  claimFirstAdmin(trx: Kysely<Database>, userId: number, now: string): Promise<boolean> {
    return claimFirstAdmin(trx, userId, now);
  }

  /** The hash of a random password nobody is told, for an account made by single sign-on. */
  unknownPasswordHash(): Promise<string> {
    return hashPassword(randomToken(32));
  }

  /**
   * An account made by single sign-on (docs/product.md#single-sign-on): active, verified (the
   * provider verified the e-mail), a member, with the hash of a random password nobody knows
   * (`password_set` 0, from `unknownPasswordHash`, made before the transaction: hashing is slow),
   * so password sign-in costs the same and fails. Inserted in the caller's transaction; a taken
   * name or address fails with the unique index's error for the caller.
   */
  insertFromProvider(
    trx: Kysely<Database>,
    account: { username: string; email: string; first_name: string; last_name: string },
    passwordHash: string,
    now: string,
  ): Promise<UserRow> {
    return insertUser(trx, {
      ...account,
      password_hash: passwordHash,
      password_set: 0,
      is_admin: 0,
      is_verified: 1,
      is_active: 1,
      now,
    });
  }

  update(
    id: number,
    changes: UserChanges,
    db: Kysely<Database> = this.#deps.db,
  ): Promise<UserRow | undefined> {
    return updateUser(db, id, changes);
  }

  /**
   * Every session of the account ends now: live access tokens carry the old token version and
   * every refresh family is revoked (docs/security.md#c4). Run it in the caller's transaction.
   */
  async endSessions(userId: number, now: string, db: Kysely<Database> = this.#deps.db): Promise<void> {
    await bumpTokenVersion(db, userId, now);
    await revokeUserFamilies(db, userId, now);
  }

  /**
   * A new active account: names trimmed, e-mail lower-cased, the password hashed (before the
   * transaction: hashing is slow). A taken e-mail or username is a 409, checked first and again
   * by the unique indexes when a parallel sign-up wins the race. `inTransaction` runs in the
   * insert's transaction (sign-up's first-admin claim) and gives the answer.
   */
  async create<T = UserRow>(
    account: RegisterBody,
    flags: { is_admin: Flag; is_verified: Flag },
    inTransaction: (trx: Kysely<Database>, user: UserRow, now: string) => Promise<T> = async (_trx, user) =>
      user as T,
  ): Promise<T> {
    const { db, clock } = this.#deps;
    if (await findUserByEmail(db, account.email)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
    if (await findUserByUsername(db, account.username)) throw conflict(ACCOUNT_MESSAGES.usernameTaken);
    const passwordHash = await hashPassword(account.password);
    const now = isoNow(clock);
    try {
      return await db.transaction().execute(async (trx) => {
        const user = await insertUser(trx, {
          username: account.username.trim(),
          email: account.email.trim().toLowerCase(),
          first_name: account.first_name.trim(),
          last_name: account.last_name.trim(),
          password_hash: passwordHash,
          ...flags,
          is_active: 1,
          now,
        });
        return inTransaction(trx, user, now);
      });
    } catch (error) {
      // A parallel registration took the address or name between the checks and the insert.
      if (isUniqueViolation(error)) throw conflict(ACCOUNT_MESSAGES.emailTaken);
      throw error;
    }
  }
}
