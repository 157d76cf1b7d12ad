import type { Kysely } from 'kysely';
import type { GitHubTokenStatus, SlackWebhookStatus, User } from '#shared/schemas/auth.ts';
import type { AppConfig } from '../../config.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { checkWebhookUrl, type Resolver } from '../../lib/outbound-guard.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { revokeAllAccess } from '../../repository/repository.queries.ts';
import type { AccountsService, UserChanges } from '../auth/accounts.service.ts';
import { listSealedSecrets } from './me.queries.ts';

/** Additional data that binds a sealed secret to its owner and column (docs/security.md#e1). */
export const secretContext = (userId: number, field: 'github_token' | 'slack_webhook') =>
  `user:${userId}:${field}`;

export interface MeDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  accounts: AccountsService;
  /** Where a personal token that can't be decrypted is reported. */
  log: { error(object: object, message: string): void };
  config: AppConfig;
  resolve?: Resolver;
}

/** The caller's own profile and stored secrets; answers carry status only, never the secret. */
export class MeService {
  readonly #deps: MeDeps;

  constructor(deps: MeDeps) {
    this.#deps = deps;
  }

  async #load(userId: number): Promise<UserRow> {
    return found(await this.#deps.accounts.find(userId));
  }

  /** Changes the caller's own row; every change stamps `updated_at` (now, unless given). */
  async #update(userId: number, changes: Partial<UserChanges>, db?: Kysely<Database>): Promise<UserRow> {
    const stamped = { updated_at: isoNow(this.#deps.clock), ...changes };
    return found(await this.#deps.accounts.update(userId, stamped, db));
  }

  async getUser(userId: number): Promise<User> {
    return this.#deps.accounts.present(await this.#load(userId));
  }

  async updateProfile(userId: number, firstName: string, lastName: string): Promise<User> {
    const row = await this.#update(userId, { first_name: firstName.trim(), last_name: lastName.trim() });
    return this.#deps.accounts.present(row);
  }

  githubTokenStatus(row: UserRow): GitHubTokenStatus {
    return {
      has_personal_token: row.github_token_enc !== null,
      token_last_four: row.github_token_last_four,
      token_set_at: row.github_token_set_at,
      shared_quota_remaining: this.#deps.accounts.sharedQuotaRemaining,
    };
  }

  async getGitHubToken(userId: number): Promise<GitHubTokenStatus> {
    return this.githubTokenStatus(await this.#load(userId));
  }

  async setGitHubToken(userId: number, token: string): Promise<GitHubTokenStatus> {
    const now = isoNow(this.#deps.clock);
    const row = await this.#update(userId, {
      github_token_enc: this.#deps.box.seal(token.trim(), secretContext(userId, 'github_token')),
      github_token_last_four: token.trim().slice(-4),
      github_token_set_at: now,
      updated_at: now,
    });
    return this.githubTokenStatus(row);
  }

  /**
   * Without a token the member can no longer prove access to private repositories, so the
   * visibility it gave them ends with it (docs/product.md#private-repositories); adding one
   * again with a token that reads it restores it.
   */
  async removeGitHubToken(userId: number): Promise<GitHubTokenStatus> {
    const row = await this.#deps.db.transaction().execute(async (trx) => {
      await revokeAllAccess(trx, userId);
      return this.#update(
        userId,
        { github_token_enc: null, github_token_last_four: null, github_token_set_at: null },
        trx,
      );
    });
    return this.githubTokenStatus(row);
  }

  /** The decrypted personal token, for the GitHub client acting on the user's behalf. */
  async readGitHubToken(userId: number): Promise<string | null> {
    const row = await this.#load(userId);
    return row.github_token_enc
      ? this.#deps.box.open(row.github_token_enc, secretContext(userId, 'github_token'))
      : null;
  }

  /**
   * The member's own GitHub token for work done on their behalf, or null: none stored, or sealed
   * under another SECRET_KEY (reported, then treated as none).
   */
  async personalToken(userId: number): Promise<string | null> {
    try {
      return await this.readGitHubToken(userId);
    } catch (error) {
      this.#deps.log.error({ err: error, user_id: userId }, 'stored GitHub token could not be decrypted');
      return null;
    }
  }

  webhookStatus(row: UserRow): SlackWebhookStatus {
    return { has_webhook: row.slack_webhook_enc !== null, webhook_set_at: row.slack_webhook_set_at };
  }

  async getSlackWebhook(userId: number): Promise<SlackWebhookStatus> {
    return this.webhookStatus(await this.#load(userId));
  }

  async setSlackWebhook(userId: number, rawUrl: string): Promise<SlackWebhookStatus> {
    const url = await checkWebhookUrl(rawUrl, this.#deps.config.webhookAllowedHosts, this.#deps.resolve);
    const now = isoNow(this.#deps.clock);
    const row = await this.#update(userId, {
      slack_webhook_enc: this.#deps.box.seal(url.href, secretContext(userId, 'slack_webhook')),
      slack_webhook_set_at: now,
      updated_at: now,
    });
    return this.webhookStatus(row);
  }

  async removeSlackWebhook(userId: number): Promise<SlackWebhookStatus> {
    const row = await this.#update(userId, { slack_webhook_enc: null, slack_webhook_set_at: null });
    return this.webhookStatus(row);
  }

  /** The decrypted webhook URL, for sending notifications. */
  async readSlackWebhook(userId: number): Promise<string | null> {
    const row = await this.#load(userId);
    return row.slack_webhook_enc
      ? this.#deps.box.open(row.slack_webhook_enc, secretContext(userId, 'slack_webhook'))
      : null;
  }

  /**
   * docs/security.md#e1: stored secrets that don't open with this SECRET_KEY (a restore without
   * the key file). Their members must store them again; counted at boot to say so loudly.
   */
  async countUnreadableSecrets(): Promise<number> {
    let unreadable = 0;
    for (const row of await listSealedSecrets(this.#deps.db)) {
      for (const [field, sealed] of [
        ['github_token', row.github_token_enc],
        ['slack_webhook', row.slack_webhook_enc],
      ] as const) {
        if (!sealed) continue;
        try {
          this.#deps.box.open(sealed, secretContext(row.id, field));
        } catch {
          unreadable += 1;
        }
      }
    }
    return unreadable;
  }
}

function found(row: UserRow | undefined): UserRow {
  if (!row) throw notFound('User not found');
  return row;
}
