import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { LINK_REQUEST_ANSWER_MS, RESET_LINK_HOURS, VERIFICATION_LINK_HOURS } from '#shared/constants.ts';
import type {
  ChangePasswordResponse,
  LoginResponse,
  LogoutResponse,
  RegisterBody,
  SuccessResponse,
  User,
} from '#shared/schemas/auth.ts';
import type { AppConfig } from '../../config.ts';
import type { Database, EmailTokenPurpose, UserRow } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import { AppError, badRequest, notFound } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { addSeconds, type Clock, isoNow, nowMs } from '../../lib/clock.ts';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import {
  type Mailer,
  type MessagesService,
  passwordChangedMail,
  resetMail,
  verificationMail,
} from '../messages/messages.service.ts';
import { ACCOUNT_MESSAGES, type AccountsService } from './accounts.service.ts';
import {
  claimFirstAdmin,
  consumeEmailToken,
  findEmailToken,
  findUserByEmail,
  findUserById,
  findUserByLogin,
  replaceEmailToken,
  revokeFamily,
  updateUser,
  voidEmailTokens,
} from './auth.queries.ts';
import type { TokenService } from './tokens.service.ts';

export const MESSAGES = {
  invalidCredentials: 'Invalid email/username or password',
  unverified:
    'Please verify your email address before signing in. Check your inbox or request a new verification email.',
  inactive: 'Your account has been deactivated. Please contact an administrator.',
  registrationClosed:
    'Registration is closed on this instance. Ask an administrator to create an account for you.',
  registered: 'Registration successful! Please check your email to verify your account.',
  registeredFirstAdmin:
    'Registration successful! You are the first user, so your account is an administrator and ready to use.',
  registeredMailFailed:
    'Your account was created, but the verification email could not be sent. Use "Resend verification email" to try again.',
  ...ACCOUNT_MESSAGES,
  verified: 'Email verified successfully! You can now sign in.',
  verifyNotFound: 'Verification token not found. The link may have expired or already been used.',
  verifyInvalid: 'Invalid or expired verification token. Please request a new verification email.',
  resent:
    'If an account with that email exists and is not yet verified, a new verification email has been sent.',
  forgot: 'If the email exists, a password reset link has been sent.',
  resetInvalid: 'Invalid or expired reset token',
  resetValid: 'Reset token is valid',
  resetDone: 'Your password has been reset. You can now sign in with your new password.',
  currentPasswordWrong: 'Current password is incorrect',
  passwordChanged: 'Password changed successfully. Your other sessions have been signed out.',
  loggedOut: 'Signed out',
  loggedOutEverywhere:
    'Signed out of every session. API tokens are not sessions and keep working: revoke them in Settings → API tokens.',
  loginOk: 'Login successful',
  passwordLoginOff:
    'Password sign-in is turned off on this instance: sign in with single sign-on. (Registration and password reset are off too.)',
} as const;

/**
 * Sign-out's part in single sign-on (the oidc module): the provider's end-session URL of the
 * session's refresh family when it came from the provider, forgetting its ID token.
 */
export interface SignOutHook {
  endSessionUrl(familyId: string): Promise<string | undefined>;
}

/**
 * Where a one-time link's mail goes: queued in the link's own transaction, so the link and its
 * mail are one commit, and the queue's worker woken once it is committed (a wake inside the
 * transaction finds nothing yet on PostgreSQL, and the mail would wait for the next poll).
 */
export interface LinkOutbox {
  messages: Pick<MessagesService, 'queue'>;
  jobs: Pick<JobQueue, 'wake'>;
}

/** The Atom feed's token (activity), revoked with the sessions by "sign out everywhere". */
export type FeedTokens = Pick<ActivityService, 'revokeFeedToken'>;

/** The audit actions of the two public link requests: one row for every request, account or not. */
export const LINK_REQUEST_ACTIONS = {
  reset: 'auth.password_reset.requested',
  verify: 'auth.verification.requested',
} as const satisfies Record<EmailTokenPurpose, string>;

export interface AuthDeps {
  db: Kysely<Database>;
  tokens: TokenService;
  accounts: AccountsService;
  mailer: Mailer;
  clock: Clock;
  config: AppConfig;
  log: FastifyBaseLogger;
  /** Queues a one-time link's mail in the link's own transaction. */
  outbox: LinkOutbox;
  /** The Atom feed's token, revoked by "sign out everywhere". */
  feedTokens: FeedTokens;
  /** Single sign-on's sign-out (the provider's end-session URL). */
  signOut?: SignOutHook;
}

/**
 * Sign-up, sign-in, e-mail verification, password reset and change (docs/product.md#accounts-and-sessions).
 */
export class AuthService {
  readonly #deps: AuthDeps;

  constructor(deps: AuthDeps) {
    this.#deps = deps;
  }

  present(row: UserRow): User {
    return this.#deps.accounts.present(row);
  }

  async register(body: RegisterBody): Promise<{ message: string }> {
    const { outbox } = this.#deps;
    const { config } = this.#deps;
    this.#requirePasswordLogin();
    if (config.registration === 'closed') throw new AppError(403, 'forbidden', MESSAGES.registrationClosed);
    // The account and the first-admin claim are one change: of simultaneous registrations on
    // an empty instance exactly one becomes its administrator, verified at once; the others
    // are ordinary members (a "no users yet" count before the insert let all of them through).
    const { user, first } = await this.#deps.accounts.create(
      body,
      { is_admin: 0, is_verified: 0 },
      async (trx, inserted, now) => {
        if (!(await claimFirstAdmin(trx, inserted.id, now))) return { user: inserted, first: false };
        const admin = await updateUser(trx, inserted.id, { is_admin: 1, is_verified: 1, updated_at: now });
        return { user: admin ?? inserted, first: true };
      },
    );
    if (first) return { message: MESSAGES.registeredFirstAdmin };
    try {
      await this.#deps.db.transaction().execute((trx) => this.#storeEmailLink(trx, user, 'verify'));
      outbox.jobs.wake();
      return { message: MESSAGES.registered };
    } catch (error) {
      this.#deps.log.error({ err: error }, 'the verification mail could not be queued');
      return { message: MESSAGES.registeredMailFailed };
    }
  }

  /**
   * What the per-account login limit counts against: the account an identifier names (any
   * spelling of its username or e-mail), else the identifier normalised as sign-in reads it.
   * Both cost one lookup, so the key tells nothing by its timing.
   */
  async loginLimitKey(identifier: string): Promise<string> {
    const normalised = identifier.trim().toLowerCase();
    const user = await findUserByLogin(this.#deps.db, normalised);
    return user ? `user:${user.id}` : `unknown:${normalised}`;
  }

  /** PASSWORD_LOGIN=off: password sign-in, registration and reset are refused (403). */
  #requirePasswordLogin(): void {
    if (!this.#deps.config.passwordLogin) throw new AppError(403, 'forbidden', MESSAGES.passwordLoginOff);
  }

  async login(login: string, password: string, rememberMe: boolean): Promise<LoginResponse> {
    this.#requirePasswordLogin();
    const { db, tokens, clock } = this.#deps;
    const user = await findUserByLogin(db, login);
    const ok = user ? await verifyPassword(user.password_hash, password) : await verifyAgainstDummy(password);
    if (!user || !ok) throw new AppError(401, 'unauthorized', MESSAGES.invalidCredentials);
    // Only after the password checked out may the answer say why the account can't sign in.
    if (user.is_active !== 1) throw new AppError(403, 'forbidden', MESSAGES.inactive);
    if (user.is_verified !== 1) throw new AppError(403, 'forbidden', MESSAGES.unverified);
    const now = isoNow(clock);
    const changes: Parameters<typeof updateUser>[2] = { last_login_at: now, updated_at: now };
    if (needsRehash(user.password_hash)) changes.password_hash = await hashPassword(password);
    const updated = (await updateUser(db, user.id, changes)) ?? user;
    const issued = await tokens.startSession(updated, rememberMe);
    return { ...issued, user: this.present(updated), message: MESSAGES.loginOk };
  }

  async verifyEmail(token: string): Promise<SuccessResponse> {
    const { db, clock } = this.#deps;
    const now = isoNow(clock);
    const tokenHash = hashToken(token);
    const userId = await consumeEmailToken(db, 'verify', tokenHash, now);
    if (userId === undefined) {
      const known = await findEmailToken(db, 'verify', tokenHash);
      if (!known) throw notFound(MESSAGES.verifyNotFound);
      throw badRequest(MESSAGES.verifyInvalid);
    }
    await updateUser(db, userId, { is_verified: 1, updated_at: now });
    return { success: true, message: MESSAGES.verified };
  }

  /** Same answer, after the same work, whether or not the address exists or is already verified. */
  async resendVerification(email: string): Promise<SuccessResponse> {
    await this.#requestEmailLink(email, 'verify', (user) => user.is_verified !== 1 && user.is_active === 1);
    return { success: true, message: MESSAGES.resent };
  }

  /** Same answer, after the same work, whether or not the address exists (docs/security.md#b1). */
  async forgotPassword(email: string): Promise<SuccessResponse> {
    this.#requirePasswordLogin();
    await this.#requestEmailLink(email, 'reset', (user) => user.is_active === 1);
    return { success: true, message: MESSAGES.forgot };
  }

  async verifyResetToken(token: string): Promise<SuccessResponse> {
    this.#requirePasswordLogin();
    const row = await findEmailToken(this.#deps.db, 'reset', hashToken(token));
    const now = isoNow(this.#deps.clock);
    if (!row || row.used_at !== null || row.expires_at <= now) throw badRequest(MESSAGES.resetInvalid);
    return { success: true, message: MESSAGES.resetValid };
  }

  async resetPassword(token: string, newPassword: string): Promise<SuccessResponse> {
    this.#requirePasswordLogin();
    const { db, clock } = this.#deps;
    const now = isoNow(clock);
    const passwordHash = await hashPassword(newPassword);
    // One change: the link is spent only if the password changes and every session and other
    // link dies with the old password (docs/security.md#b2, #b4); a crash leaves all or nothing.
    const user = await db.transaction().execute(async (trx) => {
      const userId = await consumeEmailToken(trx, 'reset', hashToken(token), now);
      if (userId === undefined) return undefined;
      const row = await findUserById(trx, userId);
      if (row?.is_active !== 1) return undefined;
      // An account made by single sign-on has a password of its own from now on.
      await updateUser(trx, userId, { password_hash: passwordHash, password_set: 1, updated_at: now });
      await this.#deps.accounts.endSessions(userId, now, trx);
      await voidEmailTokens(trx, userId, 'reset', now);
      return row;
    });
    if (!user) throw badRequest(MESSAGES.resetInvalid);
    await this.#notify(passwordChangedMail(this.#deps.config.appName, user.email, user.first_name));
    return { success: true, message: MESSAGES.resetDone };
  }

  /**
   * Changes the password and ends every session at once, as reset and log-out-everywhere do:
   * the token version moves (live access tokens die, not only refresh tokens) and every refresh
   * family is revoked. The caller gets a fresh pair in the answer, so the person changing it is
   * not thrown out mid-task; it keeps remember-me when their own live refresh token says so.
   */
  async changePassword(
    userId: number,
    current: string,
    next: string,
    ownRefreshToken?: string,
  ): Promise<ChangePasswordResponse> {
    const { db, clock, tokens } = this.#deps;
    const user = await findUserById(db, userId);
    if (!user) throw notFound('User not found');
    if (!(await verifyPassword(user.password_hash, current))) {
      throw badRequest(MESSAGES.currentPasswordWrong, { current_password: MESSAGES.currentPasswordWrong });
    }
    const now = isoNow(clock);
    const passwordHash = await hashPassword(next);
    // All or nothing: a crash can't leave the new password with the old sessions alive.
    const session = await db.transaction().execute(async (trx) => {
      const rememberMe = ownRefreshToken ? await tokens.remembers(ownRefreshToken, userId, trx) : false;
      await updateUser(trx, userId, { password_hash: passwordHash, updated_at: now });
      await this.#deps.accounts.endSessions(userId, now, trx);
      const updated = await findUserById(trx, userId);
      if (!updated) throw notFound('User not found');
      return tokens.startSession(updated, rememberMe, trx);
    });
    await this.#notify(passwordChangedMail(this.#deps.config.appName, user.email, user.first_name));
    return { message: MESSAGES.passwordChanged, ...session };
  }

  /**
   * Ends the session of a refresh token. A session that came from single sign-on answers the
   * provider's end-session URL too, when it offers one: the web app goes there to end the
   * provider's session (docs/product.md#single-sign-on).
   */
  async logout(refreshToken: string): Promise<LogoutResponse> {
    const family = await this.#deps.tokens.familyOf(refreshToken);
    if (!family) return { message: MESSAGES.loggedOut };
    await revokeFamily(this.#deps.db, family.familyId, isoNow(this.#deps.clock));
    const endSessionUrl = await this.#deps.signOut?.endSessionUrl(family.familyId);
    return endSessionUrl
      ? { message: MESSAGES.loggedOut, end_session_url: endSessionUrl }
      : { message: MESSAGES.loggedOut };
  }

  /**
   * "Sign out everywhere": every session ends (refresh families revoked, live access tokens
   * invalidated) and the Atom feed's token is revoked with them, all or nothing. The feed token
   * is no session, but it reads what the account can see and had outlived this button
   * (issue 22; docs/security.md#c4, #c7). The route hands the feed over (`app.services.activity`).
   */
  async logoutEverywhere(userId: number): Promise<{ message: string }> {
    const feed = this.#deps.feedTokens;
    const now = isoNow(this.#deps.clock);
    await this.#deps.db.transaction().execute(async (trx) => {
      await this.#deps.accounts.endSessions(userId, now, trx);
      await feed.revokeFeedToken(userId, trx);
    });
    return { message: MESSAGES.loggedOutEverywhere };
  }

  /**
   * A public request for a link (forgot-password, resend-verification). Whether or not the
   * address names an account that may have the link, the answer waits for the same work: one
   * lookup and one commit, which holds the request's audit row and, for an account that gets
   * the link, the link and its queued mail too (a commit's flush costs the same for one row or
   * three). Before, only a real address waited for its link's commits: 17 ms apart on a disk
   * with `synchronous = FULL` (issue 22). The job queue's worker then takes the queued mail at
   * once, which only a real address causes, so the answer also waits for a floor
   * (LINK_REQUEST_ANSWER_MS) that covers both (docs/security.md#b1).
   */
  async #requestEmailLink(
    email: string,
    purpose: EmailTokenPurpose,
    mayHaveLink: (user: UserRow) => boolean,
  ): Promise<void> {
    const { db, clock, outbox } = this.#deps;
    const started = nowMs(clock);
    const user = await findUserByEmail(db, email);
    const recipient = user && mayHaveLink(user) ? user : undefined;
    await db.transaction().execute(async (trx) => {
      await writeAudit(trx, {
        actorId: null,
        action: LINK_REQUEST_ACTIONS[purpose],
        target: user ? `user:${user.id}` : null,
        detail: { link_sent: recipient !== undefined },
        at: isoNow(clock),
      });
      if (recipient) await this.#storeEmailLink(trx, recipient, purpose);
    });
    // Both wake the worker: it takes a real address's mail now, and finds nothing for another.
    outbox.jobs.wake();
    const left = LINK_REQUEST_ANSWER_MS - (nowMs(clock) - started);
    if (left > 0) await sleep(left);
  }

  /**
   * A new one-time link (the previous ones of its purpose void) and its mail, queued in the
   * caller's transaction: the link exists exactly when its mail does.
   */
  async #storeEmailLink(trx: Kysely<Database>, user: UserRow, purpose: EmailTokenPurpose): Promise<void> {
    const { clock, config, outbox } = this.#deps;
    const token = randomToken(32);
    const now = clock.now();
    const hours = purpose === 'verify' ? VERIFICATION_LINK_HOURS : RESET_LINK_HOURS;
    await replaceEmailToken(trx, {
      user_id: user.id,
      purpose,
      token_hash: hashToken(token),
      expires_at: addSeconds(now, hours * 3600).toISOString(),
      created_at: now.toISOString(),
    });
    // Links come from PUBLIC_URL, never from the request's Host header (docs/security.md#b3).
    const path = purpose === 'verify' ? 'verify-email' : 'reset-password';
    const link = `${config.publicUrl}/#/${path}?token=${encodeURIComponent(token)}`;
    const message =
      purpose === 'verify'
        ? verificationMail(config.appName, user.email, user.first_name, link)
        : resetMail(config.appName, user.email, user.first_name, link);
    await outbox.messages.queue({ kind: 'mail', mail: message }, { db: trx });
  }

  async #notify(mail: Parameters<Mailer['send']>[0]): Promise<boolean> {
    try {
      await this.#deps.mailer.send(mail);
      return true;
    } catch (error) {
      this.#deps.log.error({ err: error, subject: mail.subject }, 'mail could not be sent');
      return false;
    }
  }
}
