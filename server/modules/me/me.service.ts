import type { Kysely } from 'kysely';
import type { GitHubTokenStatus, SlackWebhookStatus, User } from '../../../shared/schemas/auth.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { SharedQuota } from '../../github/quota.ts';
import { notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { checkWebhookUrl, type Resolver } from '../../lib/outbound-guard.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { findUserById, updateUser } from '../auth/auth.queries.ts';
import { presentUser, type UserRow } from '../auth/user-presenter.ts';

/** Additional data that binds a sealed secret to its owner and column (SECURITY.md E1). */
export const secretContext = (userId: number, field: 'github_token' | 'slack_webhook') =>
  `user:${userId}:${field}`;

export interface MeDeps {
  db: Kysely<Database>;
  clock: Clock;
  box: SecretBox;
  quota: SharedQuota;
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
    const row = await findUserById(this.#deps.db, userId);
    if (!row) throw notFound('User not found');
    return row;
  }

  async getUser(userId: number): Promise<User> {
    return presentUser(await this.#load(userId), this.#deps.quota.remaining);
  }

  async updateProfile(userId: number, firstName: string, lastName: string): Promise<User> {
    const row = await updateUser(this.#deps.db, userId, {
      first_name: firstName.trim(),
      last_name: lastName.trim(),
      updated_at: this.#deps.clock.now().toISOString(),
    });
    if (!row) throw notFound('User not found');
    return presentUser(row, this.#deps.quota.remaining);
  }

  githubTokenStatus(row: UserRow): GitHubTokenStatus {
    return {
      has_personal_token: row.github_token_enc !== null,
      token_last_four: row.github_token_last_four,
      token_set_at: row.github_token_set_at,
      shared_quota_remaining: this.#deps.quota.remaining,
    };
  }

  async getGitHubToken(userId: number): Promise<GitHubTokenStatus> {
    return this.githubTokenStatus(await this.#load(userId));
  }

  async setGitHubToken(userId: number, token: string): Promise<GitHubTokenStatus> {
    const now = this.#deps.clock.now().toISOString();
    const row = await updateUser(this.#deps.db, userId, {
      github_token_enc: this.#deps.box.seal(token.trim(), secretContext(userId, 'github_token')),
      github_token_last_four: token.trim().slice(-4),
      github_token_set_at: now,
      updated_at: now,
    });
    if (!row) throw notFound('User not found');
    return this.githubTokenStatus(row);
  }

  async removeGitHubToken(userId: number): Promise<GitHubTokenStatus> {
    const row = await updateUser(this.#deps.db, userId, {
      github_token_enc: null,
      github_token_last_four: null,
      github_token_set_at: null,
      updated_at: this.#deps.clock.now().toISOString(),
    });
    if (!row) throw notFound('User not found');
    return this.githubTokenStatus(row);
  }

  /** The decrypted personal token, for the GitHub client acting on the user's behalf. */
  async readGitHubToken(userId: number): Promise<string | null> {
    const row = await this.#load(userId);
    return row.github_token_enc
      ? this.#deps.box.open(row.github_token_enc, secretContext(userId, 'github_token'))
      : null;
  }

  webhookStatus(row: UserRow): SlackWebhookStatus {
    return { has_webhook: row.slack_webhook_enc !== null, webhook_set_at: row.slack_webhook_set_at };
  }

  async getSlackWebhook(userId: number): Promise<SlackWebhookStatus> {
    return this.webhookStatus(await this.#load(userId));
  }

  async setSlackWebhook(userId: number, rawUrl: string): Promise<SlackWebhookStatus> {
    const url = await checkWebhookUrl(rawUrl, this.#deps.config.webhookAllowedHosts, this.#deps.resolve);
    const now = this.#deps.clock.now().toISOString();
    const row = await updateUser(this.#deps.db, userId, {
      slack_webhook_enc: this.#deps.box.seal(url.href, secretContext(userId, 'slack_webhook')),
      slack_webhook_set_at: now,
      updated_at: now,
    });
    if (!row) throw notFound('User not found');
    return this.webhookStatus(row);
  }

  async removeSlackWebhook(userId: number): Promise<SlackWebhookStatus> {
    const row = await updateUser(this.#deps.db, userId, {
      slack_webhook_enc: null,
      slack_webhook_set_at: null,
      updated_at: this.#deps.clock.now().toISOString(),
    });
    if (!row) throw notFound('User not found');
    return this.webhookStatus(row);
  }

  /** The decrypted webhook URL, for sending notifications. */
  async readSlackWebhook(userId: number): Promise<string | null> {
    const row = await this.#load(userId);
    return row.slack_webhook_enc
      ? this.#deps.box.open(row.slack_webhook_enc, secretContext(userId, 'slack_webhook'))
      : null;
  }
}
