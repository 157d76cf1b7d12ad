/** Why a GitHub call failed, in the terms the user needs (DESIGN §3, GITHUB-API.md status cases). */
export type GitHubErrorKind = 'not_found' | 'rate_limited' | 'bad_credentials' | 'unreachable' | 'forbidden';

export class GitHubError extends Error {
  readonly kind: GitHubErrorKind;
  /** When the quota resets, for rate_limited. */
  readonly resetAt?: Date;

  constructor(kind: GitHubErrorKind, message: string, resetAt?: Date) {
    super(message);
    this.name = 'GitHubError';
    this.kind = kind;
    this.resetAt = resetAt;
  }
}

export function rateLimitMessage(resetAt: Date | undefined, hasToken: boolean): string {
  const when = resetAt ? ` Try again after ${resetAt.toISOString().slice(11, 16)} UTC` : ' Try again later';
  const hint = hasToken
    ? '.'
    : ', or add a personal GitHub token in Settings → GitHub Access for 5,000 requests an hour.';
  return `GitHub's API rate limit is used up.${when}${hint}`;
}

export const MESSAGES = {
  notFound: (fullName: string) =>
    `Repository ${fullName} was not found on GitHub (it may be private: add a personal GitHub token that can read it).`,
  badCredentials:
    'GitHub rejected the personal token (revoked or expired). Update it in Settings → GitHub Access.',
  unreachable: 'GitHub could not be reached (time-out or outage). Please try again later.',
  forbidden: 'GitHub refused the request.',
} as const;
