import { describe, expect, it } from 'vitest';
import type { ErrorBody, ErrorCode } from '#shared/schemas/errors.ts';
import { ApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_MESSAGE } from './api-client.ts';
import {
  type ApiErrorKind,
  apiErrorKind,
  describeApiError,
  describeError,
  fieldErrors,
  isTransientError,
  UNEXPECTED_ERROR_MESSAGE,
} from './api-errors.ts';

/** An ApiError as the client builds it from an error answer. */
function answer(status: number, code: ErrorCode, message: string, extra: Partial<ErrorBody> = {}) {
  return new ApiError(message, status, { message, code, ...extra });
}

describe('apiErrorKind', () => {
  it.each<[string, unknown, ApiErrorKind]>([
    ['the time-out', new ApiError(TIMEOUT_MESSAGE, 0), 'timeout'],
    ['no connection', new ApiError(NETWORK_ERROR_MESSAGE, 0), 'network'],
    ['another status-0 failure', new ApiError('This tab could not pick up the session', 0), 'interrupted'],
    [
      '400 validation_failed',
      answer(400, 'validation_failed', 'Bad url', { fields: { url: 'Bad url' } }),
      'validation',
    ],
    ['400 bad_request', answer(400, 'bad_request', 'Invalid or expired reset token'), 'bad_request'],
    ['400 without a body', new ApiError('400 Bad Request', 400), 'bad_request'],
    ['401', answer(401, 'unauthorized', 'Authentication required. Please log in.'), 'unauthorized'],
    ['403', answer(403, 'forbidden', 'Access denied. Admin privileges required.'), 'forbidden'],
    ['404', new ApiError('whatever', 404), 'not_found'],
    ['409', answer(409, 'conflict', 'Version v1.0 already exists.'), 'conflict'],
    ['429', answer(429, 'rate_limited', 'Too many requests', { retry_after: 60 }), 'rate_limited'],
    ['500', answer(500, 'internal_error', 'An unexpected error occurred. Please try again.'), 'unavailable'],
    ['502 from GitHub', answer(502, 'bad_gateway', 'GitHub could not be reached.'), 'unavailable'],
    ['503 without a body', new ApiError('503 Service Unavailable', 503), 'unavailable'],
    ['413', answer(413, 'payload_too_large', 'Request body is too large'), 'other'],
    ['a 200 of the wrong shape', new ApiError('Invalid response format from server', 200), 'bad_response'],
    ['a thrown error', new Error('boom'), 'unexpected'],
    ['anything else', 'boom', 'unexpected'],
  ])('%s → %s', (_name, error, kind) => {
    expect(apiErrorKind(error)).toBe(kind);
  });

  it("decides a 400 by the server's code, whatever the message says", () => {
    const tokenField = answer(400, 'validation_failed', 'Invalid token format', { fields: { token: 'x' } });
    expect(apiErrorKind(tokenField)).toBe('validation');
    expect(apiErrorKind(answer(400, 'bad_request', 'Webhook host is not allowed'))).toBe('bad_request');
  });

  it("goes by the status where a body's code disagrees with it", () => {
    expect(apiErrorKind(answer(403, 'bad_request', 'Access denied'))).toBe('forbidden');
  });
});

describe('describeApiError', () => {
  it('carries what screens need: texts, fields, retry_after', () => {
    const outcome = describeApiError(
      answer(400, 'validation_failed', 'Current password is incorrect', {
        fields: { current_password: 'Current password is incorrect' },
      }),
    );
    expect(outcome).toEqual({
      kind: 'validation',
      message: 'Current password is incorrect',
      serverMessage: 'Current password is incorrect',
      fields: { current_password: 'Current password is incorrect' },
      retryAfter: undefined,
      transient: false,
      refused: true,
    });
    expect(describeApiError(answer(429, 'rate_limited', 'Slow down', { retry_after: 900 })).retryAfter).toBe(
      900,
    );
  });

  it('has no server message for a body without one, or no body', () => {
    expect(
      describeApiError(new ApiError('Request failed', 409, { message: '  ', code: 'conflict' })),
    ).toMatchObject({ kind: 'conflict', message: 'Request failed', serverMessage: null });
    expect(describeApiError(new ApiError('502 Bad Gateway', 502))).toMatchObject({
      message: '502 Bad Gateway',
      serverMessage: null,
    });
  });

  it('calls time-outs, no answer and 5xx transient, and 4xx refused', () => {
    const transient = [
      new ApiError(TIMEOUT_MESSAGE, 0),
      new ApiError(NETWORK_ERROR_MESSAGE, 0),
      new ApiError('x', 0),
    ];
    for (const error of [...transient, new ApiError('down', 500), new ApiError('db', 503)]) {
      expect(describeApiError(error)).toMatchObject({ transient: true, refused: false });
      expect(isTransientError(error)).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 409, 413, 429]) {
      expect(describeApiError(new ApiError('no', status))).toMatchObject({ transient: false, refused: true });
    }
    for (const error of [new Error('boom'), new ApiError('Invalid response format from server', 200)]) {
      expect(describeApiError(error)).toMatchObject({ transient: false, refused: false });
      expect(isTransientError(error)).toBe(false);
    }
  });

  it("says 'unexpected' for anything that is not an API error", () => {
    expect(describeApiError(new TypeError('x is undefined'))).toMatchObject({
      kind: 'unexpected',
      message: UNEXPECTED_ERROR_MESSAGE,
      serverMessage: null,
      fields: {},
    });
  });
});

describe('describeError', () => {
  it("shows the server's message, else the screen's fallback", () => {
    expect(describeError(answer(409, 'conflict', 'Name taken'), 'Failed to save')).toBe('Name taken');
    expect(describeError(new ApiError('500 Internal Server Error', 500), 'Failed to save')).toBe(
      'Failed to save',
    );
    expect(
      describeError(new ApiError('Request failed', 400, { message: '', code: 'bad_request' }), 'F'),
    ).toBe('F');
  });

  it("says a time-out or no connection in the client's words, or the screen's own network text", () => {
    expect(describeError(new ApiError(TIMEOUT_MESSAGE, 0), 'F', { network: 'N' })).toBe(TIMEOUT_MESSAGE);
    expect(describeError(new ApiError(NETWORK_ERROR_MESSAGE, 0), 'F')).toBe(NETWORK_ERROR_MESSAGE);
    expect(describeError(new ApiError(NETWORK_ERROR_MESSAGE, 0), 'F', { network: 'N' })).toBe('N');
    expect(describeError(new ApiError('Renewed elsewhere', 0), 'F', { network: 'N' })).toBe(
      'Renewed elsewhere',
    );
  });

  it("says 'unexpected' for anything else", () => {
    expect(describeError(new Error('boom'), 'F')).toBe(UNEXPECTED_ERROR_MESSAGE);
  });
});

describe('fieldErrors', () => {
  it("gives the server's field messages, else none", () => {
    const fields = { url: 'Webhook URL must use https' };
    expect(fieldErrors(answer(400, 'validation_failed', fields.url, { fields }))).toEqual(fields);
    expect(fieldErrors(answer(400, 'bad_request', 'No'))).toEqual({});
    expect(fieldErrors(new Error('boom'))).toEqual({});
  });
});
