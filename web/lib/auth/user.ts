/**
 * The signed-in user as the client keeps it (SPEC §3). Local for now; it moves to a shared
 * zod schema when the auth API lands, and this file then re-exports that type.
 */
export interface User {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
  is_verified: boolean;
  is_admin: boolean;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  has_personal_github_token?: boolean;
  github_token_last_four?: string | null;
  github_token_set_at?: string | null;
  github_default_quota_remaining?: number | null;
  has_slack_webhook?: boolean;
  slack_webhook_set_at?: string | null;
}

/**
 * Accepts a stored value only when the fields the shell relies on are present; anything else
 * (an old format, a hand edit) counts as "not signed in" rather than crashing a screen.
 */
export function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    typeof user.id === 'number' &&
    typeof user.username === 'string' &&
    typeof user.email === 'string' &&
    typeof user.first_name === 'string' &&
    typeof user.last_name === 'string' &&
    typeof user.is_admin === 'boolean'
  );
}

export function displayName(user: User): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || user.username;
}
