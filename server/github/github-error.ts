import { AppError, notFound } from '../lib/app-error.ts';

/** Why a GitHub call failed, in the terms the user needs (docs/product.md#github-errors). */
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

/**
 * GitHub's failures as API answers the user can act on (docs/product.md#github-errors). The one
 * mapping: services let a GitHubError through and the error handler answers with this.
 */
export function toAppError(error: GitHubError, now: Date): AppError {
  switch (error.kind) {
    case 'not_found':
      return notFound(error.message);
    case 'rate_limited': {
      const retryAfter = error.resetAt
        ? Math.max(1, Math.ceil((error.resetAt.getTime() - now.getTime()) / 1000))
        : 60;
      return new AppError(429, 'rate_limited', error.message, { retryAfter });
    }
    case 'bad_credentials':
    case 'forbidden':
      return new AppError(400, 'bad_request', error.message);
    default:
      return new AppError(502, 'bad_gateway', error.message);
  }
}
