import type { User } from '#shared/schemas/auth.ts';

/** The user, as the API sends it and the client keeps it (shared/schemas/auth.ts). */
export type { User };

const STRING_FIELDS = ['username', 'email', 'first_name', 'last_name', 'created_at', 'updated_at'] as const;
const BOOLEAN_FIELDS = [
  'is_active',
  'is_verified',
  'is_admin',
  'has_personal_github_token',
  'has_slack_webhook',
] as const;
const NULLABLE_STRING_FIELDS = [
  'last_login_at',
  'github_token_last_four',
  'github_token_set_at',
  'slack_webhook_set_at',
] as const;

/**
 * Mirrors `userSchema` field by field. The session is restored before any screen loads, and a
 * guard keeps zod out of the first-load bundle (a test checks the two agree). A stored value in
 * an old format or edited by hand reads as "not signed in" rather than crashing a screen.
 */
export function isUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    Number.isInteger(user.id) &&
    STRING_FIELDS.every((field) => typeof user[field] === 'string') &&
    BOOLEAN_FIELDS.every((field) => typeof user[field] === 'boolean') &&
    NULLABLE_STRING_FIELDS.every((field) => user[field] === null || typeof user[field] === 'string') &&
    (user.github_default_quota_remaining === null || Number.isInteger(user.github_default_quota_remaining))
  );
}

/** Field-by-field equality, independent of key order (stored copies and answers may differ in it). */
export function isSameUser(a: User, b: User): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof User)[]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

export function displayName(user: User): string {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || user.username;
}
