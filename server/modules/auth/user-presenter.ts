import type { User } from '#shared/schemas/auth.ts';
import type { UserRow } from '../../db/schema.ts';

/**
 * The only way a user row leaves the server: the fields of `userSchema`, never the hash or a sealed secret.
 * `sharedQuotaRemaining` is the server token's last seen quota.
 */
export function presentUser(row: UserRow, sharedQuotaRemaining: number | null): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    is_active: row.is_active === 1,
    is_verified: row.is_verified === 1,
    is_admin: row.is_admin === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_login_at: row.last_login_at,
    has_personal_github_token: row.github_token_enc !== null,
    github_token_last_four: row.github_token_last_four,
    github_token_set_at: row.github_token_set_at,
    github_default_quota_remaining: sharedQuotaRemaining,
    has_slack_webhook: row.slack_webhook_enc !== null,
    slack_webhook_set_at: row.slack_webhook_set_at,
  };
}
