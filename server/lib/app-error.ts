import type { ErrorCode } from '#shared/schemas/errors.ts';

/**
 * The one way services report an expected failure. The error handler turns it into the one error
 * body `{ message, code, ... }` with this status; anything else becomes a generic 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly retryAfter?: number;
  readonly fields?: Record<string, string>;

  constructor(
    statusCode: number,
    code: ErrorCode,
    message: string,
    extra: { retryAfter?: number; fields?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.retryAfter = extra.retryAfter;
    this.fields = extra.fields;
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, fields ? 'validation_failed' : 'bad_request', message, { fields });
export const unauthorized = (message = 'Authentication required. Please log in.') =>
  new AppError(401, 'unauthorized', message);
export const forbidden = (message = 'Access denied. Admin privileges required.') =>
  new AppError(403, 'forbidden', message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const tooManyRequests = (message: string, retryAfter: number) =>
  new AppError(429, 'rate_limited', message, { retryAfter });
