import type { Kysely } from 'kysely';
import {
  type AdminStats,
  type AdminUser,
  type AdminUserFlag,
  type AdminUserPatchBody,
  type AdminUsersResponse,
  adminUserFlags,
} from '#shared/schemas/admin.ts';
import type { RegisterBody, User } from '#shared/schemas/auth.ts';
import type { Dialect } from '../../db/database.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { addMs, type Clock, isoNow } from '../../lib/clock.ts';
import type { ApiTokensService } from '../api-tokens/api-tokens.service.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import {
  type AdminUserRow,
  countOtherActiveAdmins,
  countRepositories,
  countUsersByState,
  findAdminUser,
  listAllUsers,
  listUsers,
  lockActiveAdmins,
  promoteUser,
  setUserFlag,
} from './admin.queries.ts';

/** `recent` counts accounts created in the last 30 days. */
export const RECENT_USER_DAYS = 30;

export const ADMIN_MESSAGES = {
  userNotFound: 'User not found',
  selfDemotion: 'You cannot remove your own admin rights. Ask another admin to do it.',
  selfDeactivation: 'You cannot deactivate your own account. Ask another admin to do it.',
  lastAdmin:
    'This is the last active admin: promote another user to admin before demoting or deactivating this one.',
  adminFollowsGroups:
    'This account signs in with single sign-on and its admin rights follow its groups at the provider (OIDC_ADMIN_GROUPS): change them there.',
} as const;

/** What a sign-in with single sign-on did to the admin flag (OIDC_ADMIN_GROUPS). */
export type ProviderAdminChange = 'unchanged' | 'promoted' | 'demoted' | 'last_admin_kept';

export interface AdminDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  clock: Clock;
  accounts: AccountsService;
  /** Deactivation revokes the member's API tokens; demotion ends their admin scope. */
  apiTokens: Pick<ApiTokensService, 'revokeAll' | 'endAdminScope'>;
  /** OIDC_ADMIN_GROUPS is set: the admin flag of accounts with a linked identity follows the provider. */
  adminFollowsGroups: boolean;
}

export interface ListUsersOptions {
  page: number;
  per_page: number;
  search?: string;
  is_active?: boolean;
}

/** User management and system statistics for admins (docs/product.md#admin-api). */
export class AdminService {
  readonly #deps: AdminDeps;

  constructor(deps: AdminDeps) {
    this.#deps = deps;
  }

  present(row: AdminUserRow): AdminUser {
    const methods: NonNullable<AdminUser['sign_in_methods']> = [];
    if (row.password_set === 1) methods.push('password');
    if (row.identity_count > 0) methods.push('sso');
    return {
      ...this.#deps.accounts.present(row),
      repository_count: row.repository_count,
      sign_in_methods: methods,
      admin_follows_groups: this.#followsGroups(row),
    };
  }

  #followsGroups(row: AdminUserRow): boolean {
    return this.#deps.adminFollowsGroups && row.identity_count > 0;
  }

  async listUsers(options: ListUsersOptions): Promise<AdminUsersResponse> {
    const { rows, total } = await listUsers(
      this.#deps.db,
      { search: options.search || undefined, isActive: options.is_active },
      { offset: (options.page - 1) * options.per_page, limit: options.per_page },
    );
    return {
      users: rows.map((row) => this.present(row)),
      total,
      page: options.page,
      per_page: options.per_page,
    };
  }

  async getUser(id: number): Promise<AdminUser> {
    const row = await findAdminUser(this.#deps.db, id);
    if (!row) throw notFound(ADMIN_MESSAGES.userNotFound);
    return this.present(row);
  }

  /**
   * Sets one flag of a user. Refuses self-demotion, self-deactivation and anything that would leave no active
   * admin, checked inside the transaction that writes the change (docs/security.md#d3). Deactivation,
   * demotion and marking unverified end the user's sessions at once; every change is audited.
   */
  async updateUserFlag(actorId: number, targetId: number, body: AdminUserPatchBody): Promise<AdminUser> {
    const flags = adminUserFlags.filter((name) => body[name] !== undefined);
    const flag: AdminUserFlag | undefined = flags[0];
    if (flags.length !== 1 || flag === undefined) {
      throw badRequest('Send exactly one of is_active, is_verified or is_admin, as true or false');
    }
    const value = body[flag] ? 1 : 0;
    const { db, dialect, clock } = this.#deps;
    const reducesAdmins = value === 0 && (flag === 'is_admin' || flag === 'is_active');

    return db.transaction().execute(async (trx) => {
      // Lock first, read second: a parallel demotion that commits meanwhile is seen here.
      if (reducesAdmins && dialect === 'postgres') await lockActiveAdmins(trx);
      const target = await findAdminUser(trx, targetId);
      if (!target) throw notFound(ADMIN_MESSAGES.userNotFound);
      if (targetId === actorId && flag === 'is_admin' && value === 0) {
        throw conflict(ADMIN_MESSAGES.selfDemotion);
      }
      if (targetId === actorId && flag === 'is_active' && value === 0) {
        throw conflict(ADMIN_MESSAGES.selfDeactivation);
      }
      if (flag === 'is_admin' && target.is_admin !== value && this.#followsGroups(target)) {
        throw conflict(ADMIN_MESSAGES.adminFollowsGroups);
      }
      const removesAnAdmin = reducesAdmins && target.is_admin === 1 && target.is_active === 1;
      if (removesAnAdmin && (await countOtherActiveAdmins(trx, targetId)) === 0) {
        throw conflict(ADMIN_MESSAGES.lastAdmin);
      }
      // The caller may have lost admin rights since the request was authenticated.
      const actor = await this.#deps.accounts.find(actorId, trx);
      if (actor?.is_admin !== 1 || actor.is_active !== 1) throw forbidden();
      if (target[flag] === value) return this.present(target);

      const now = isoNow(clock);
      // The same rule once more inside the UPDATE itself: atomic even across processes.
      if (!(await setUserFlag(trx, targetId, flag, value, now, removesAnAdmin))) {
        throw conflict(ADMIN_MESSAGES.lastAdmin);
      }
      // Deactivation, demotion and marking unverified take effect now: live access tokens carry
      // the old version, refresh tokens are revoked (docs/security.md#c4). An unverified account
      // can't sign in, so it must not stay signed in either.
      if (value === 0) await this.#deps.accounts.endSessions(targetId, now, trx);
      // API tokens are no sessions, but a deactivated member's die with the account, and a
      // demoted admin's admin tokens become write tokens (docs/security.md#c8), in this change.
      if (flag === 'is_active' && value === 0) await this.#deps.apiTokens.revokeAll(targetId, trx);
      if (flag === 'is_admin' && value === 0) await this.#deps.apiTokens.endAdminScope(targetId, trx);
      await writeAudit(trx, {
        actorId,
        action: 'admin.user.update',
        target: `user:${targetId}`,
        detail: { field: flag, old: target[flag] === 1, new: value === 1, username: target.username },
        at: now,
      });
      const updated = await findAdminUser(trx, targetId);
      if (!updated) throw notFound(ADMIN_MESSAGES.userNotFound);
      return this.present(updated);
    });
  }

  async stats(): Promise<AdminStats> {
    const { db, clock } = this.#deps;
    const since = addMs(clock.now(), -RECENT_USER_DAYS * 86_400_000).toISOString();
    const [users, repositories] = await Promise.all([countUsersByState(db, since), countRepositories(db)]);
    const average = repositories.total === 0 ? 0 : repositories.total_stars / repositories.total;
    return {
      users,
      repositories: {
        total: repositories.total,
        users_with_repos: repositories.users_with_repos,
        avg_stars: Math.round(average * 10) / 10,
        total_stars: repositories.total_stars,
      },
    };
  }

  /**
   * A single sign-on sign-in's groups decide the admin flag (OIDC_ADMIN_GROUPS,
   * docs/product.md#single-sign-on): promotion, or demotion under the same last-admin rule as the
   * admin screen's, checked in the transaction and in the UPDATE itself. A demotion ends the
   * account's sessions and admin API tokens as the admin screen's does; audited without an actor.
   */
  async setAdminFromProvider(userId: number, admin: boolean): Promise<ProviderAdminChange> {
    const { db, dialect, clock, accounts } = this.#deps;
    const value = admin ? 1 : 0;
    return db.transaction().execute(async (trx) => {
      if (!admin && dialect === 'postgres') await lockActiveAdmins(trx);
      const target = await accounts.find(userId, trx);
      if (!target || target.is_admin === value) return 'unchanged';
      const now = isoNow(clock);
      const removesAnAdmin = !admin && target.is_active === 1;
      if (!(await setUserFlag(trx, userId, 'is_admin', value, now, removesAnAdmin))) return 'last_admin_kept';
      if (!admin) {
        await accounts.endSessions(userId, now, trx);
        await this.#deps.apiTokens.endAdminScope(userId, trx);
      }
      await writeAudit(trx, {
        actorId: null,
        action: 'oidc.user.admin',
        target: `user:${userId}`,
        detail: { field: 'is_admin', old: !admin, new: admin, username: target.username },
        at: now,
      });
      return admin ? 'promoted' : 'demoted';
    });
  }

  // ---- the command line (docs/product.md#command-line) -------------------------------------

  /** Every account, oldest first. */
  async listAllUsers(): Promise<User[]> {
    return (await listAllUsers(this.#deps.db)).map((row) => this.#deps.accounts.present(row));
  }

  /**
   * An account made by an operator (for REGISTRATION=closed): active and verified at once, an
   * administrator or a member; audited without an actor.
   */
  async createAccount(account: RegisterBody, role: 'admin' | 'member'): Promise<UserRow> {
    const user = await this.#deps.accounts.create(account, {
      is_admin: role === 'admin' ? 1 : 0,
      is_verified: 1,
    });
    await writeAudit(this.#deps.db, {
      actorId: null,
      action: 'cli.user.create',
      target: `user:${user.id}`,
      detail: { username: user.username, is_admin: role === 'admin' },
      at: user.created_at,
    });
    return user;
  }

  /**
   * Makes the account named by username or e-mail an active, verified administrator; audited
   * without an actor. `changed` is false when it already was one; undefined when no such account.
   */
  async promote(login: string): Promise<{ user: UserRow; changed: boolean } | undefined> {
    const { db, clock, accounts } = this.#deps;
    const user = await accounts.findByLogin(login);
    if (!user) return undefined;
    if (user.is_admin === 1 && user.is_active === 1 && user.is_verified === 1)
      return { user, changed: false };
    const now = isoNow(clock);
    await promoteUser(db, user.id, now);
    await writeAudit(db, {
      actorId: null,
      action: 'cli.user.promote',
      target: `user:${user.id}`,
      detail: {
        field: 'is_admin',
        old: user.is_admin === 1,
        new: true,
        was_active: user.is_active === 1,
        was_verified: user.is_verified === 1,
      },
      at: now,
    });
    return { user, changed: true };
  }
}
