import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Kysely } from 'kysely';
import { ACCESS_TOKEN_MINUTES, REMEMBER_ME_HOURS, SESSION_HOURS } from '#shared/constants.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { unauthorized } from '../../lib/app-error.ts';
import { addSeconds, type Clock, isoNow, parseTime } from '../../lib/clock.ts';
import { deriveKey, hashToken, randomToken } from '../../lib/secret-box.ts';
import {
  claimRefreshToken,
  deleteExpiredRefreshTokens,
  findRefreshToken,
  findUserById,
  insertRefreshToken,
  revokeFamily,
} from './auth.queries.ts';

const ISSUER = 'repo-tracker';
const AUDIENCE = 'repo-tracker-api';
const SESSION_EXPIRED = 'Your session has expired. Please sign in again.';

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
}

/**
 * Access tokens are short JWTs (HS256 only, typed, 15 minutes) checked against the user's
 * `token_version` on every request; refresh tokens are opaque, stored hashed, rotated on every
 * use, and a replayed one revokes its whole family (docs/security.md#c1, #c2).
 */
export class TokenService {
  readonly #db: Kysely<Database>;
  readonly #key: Uint8Array;
  readonly #clock: Clock;

  constructor(db: Kysely<Database>, secretKey: string, clock: Clock) {
    this.#db = db;
    this.#key = deriveKey(secretKey, 'access-jwt-v1');
    this.#clock = clock;
  }

  async signAccessToken(user: Pick<UserRow, 'id' | 'token_version'>): Promise<string> {
    const now = Math.floor(this.#clock.now().getTime() / 1000);
    return new SignJWT({ ver: user.token_version })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(String(user.id))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + ACCESS_TOKEN_MINUTES * 60)
      .sign(this.#key);
  }

  /** The active user behind a bearer token, or a 401. */
  async verifyAccessToken(token: string): Promise<UserRow> {
    let subject: string | undefined;
    let version: unknown;
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: 'at+jwt',
        // jose checks `exp` only when present: a token without one, correctly signed (a leaked
        // key, a bug in a future signer), would never expire. Every token we sign has them all.
        requiredClaims: ['exp', 'iat', 'sub', 'ver'],
        currentDate: this.#clock.now(),
      });
      subject = payload.sub;
      version = payload.ver;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized(SESSION_EXPIRED);
      throw unauthorized('Invalid access token. Please sign in again.');
    }
    const user = subject && /^\d+$/.test(subject) ? await findUserById(this.#db, Number(subject)) : undefined;
    if (user?.is_active !== 1 || user.token_version !== version) throw unauthorized(SESSION_EXPIRED);
    return user;
  }

  /**
   * A new session: a fresh family whose absolute lifetime rotation never extends. `db` is the
   * caller's transaction when the session must start in the same change (password change).
   */
  async startSession(
    user: UserRow,
    rememberMe: boolean,
    db: Kysely<Database> = this.#db,
  ): Promise<IssuedTokens> {
    const now = this.#clock.now();
    // Each sign-in sweeps the user's dead sessions (indexed by user), so the table stays small.
    await deleteExpiredRefreshTokens(db, user.id, now.toISOString());
    const lifetimeHours = rememberMe ? REMEMBER_ME_HOURS : SESSION_HOURS;
    const refresh_token = await this.#issueRefreshToken(
      user.id,
      randomUUID(),
      rememberMe,
      addSeconds(now, lifetimeHours * 3600),
      db,
    );
    return { access_token: await this.signAccessToken(user), refresh_token };
  }

  /** Rotates a refresh token. A used or revoked one is a replay: its family dies (RFC 9700 §4.14.2). */
  async rotate(presented: string): Promise<IssuedTokens & { user: UserRow }> {
    const nowDate = this.#clock.now();
    const now = nowDate.toISOString();
    const row = await findRefreshToken(this.#db, hashToken(presented));
    if (!row) throw unauthorized(SESSION_EXPIRED);
    if (row.used_at !== null || row.revoked_at !== null) {
      await revokeFamily(this.#db, row.family_id, now);
      throw unauthorized(SESSION_EXPIRED);
    }
    if (row.expires_at <= now) throw unauthorized(SESSION_EXPIRED);
    const user = await findUserById(this.#db, row.user_id);
    if (user?.is_active !== 1) {
      await revokeFamily(this.#db, row.family_id, now);
      throw unauthorized(SESSION_EXPIRED);
    }
    // Claiming the presented token and storing its successor are one change (docs/security.md#h1):
    // apart, a crash between them left the family with a consumed token and no successor, so
    // the client, which never got the answer, retried and was signed out as a replay (found by
    // server/crash-durability.test.ts).
    const refresh_token = await this.#db.transaction().execute(async (trx) => {
      // Two racing rotations of one token: the loser is treated as a replay.
      if (!(await claimRefreshToken(trx, row.id, now))) return null;
      return this.#issueRefreshToken(
        user.id,
        row.family_id,
        row.remember_me === 1,
        parseTime(row.expires_at),
        trx,
      );
    });
    if (refresh_token === null) {
      await revokeFamily(this.#db, row.family_id, now);
      throw unauthorized(SESSION_EXPIRED);
    }
    return { access_token: await this.signAccessToken(user), refresh_token, user };
  }

  /** The family of a presented refresh token, if it is one of ours. */
  async familyOf(presented: string): Promise<{ familyId: string; userId: number } | undefined> {
    const row = await findRefreshToken(this.#db, hashToken(presented));
    return row ? { familyId: row.family_id, userId: row.user_id } : undefined;
  }

  /** Whether a presented refresh token is a live one of `userId` with remember-me on. */
  async remembers(presented: string, userId: number, db: Kysely<Database> = this.#db): Promise<boolean> {
    const row = await findRefreshToken(db, hashToken(presented));
    const now = isoNow(this.#clock);
    return (
      row?.user_id === userId &&
      row.used_at === null &&
      row.revoked_at === null &&
      row.expires_at > now &&
      row.remember_me === 1
    );
  }

  async #issueRefreshToken(
    userId: number,
    familyId: string,
    rememberMe: boolean,
    expiresAt: Date,
    db: Kysely<Database> = this.#db,
  ): Promise<string> {
    const token = randomToken(32);
    await insertRefreshToken(db, {
      user_id: userId,
      family_id: familyId,
      token_hash: hashToken(token),
      remember_me: rememberMe ? 1 : 0,
      expires_at: expiresAt.toISOString(),
      created_at: isoNow(this.#clock),
    });
    return token;
  }
}
