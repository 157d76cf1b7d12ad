import { type ApiError, isApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_MESSAGE } from './api-client.ts';

/** For anything that is not an answer (or a non-answer) of the API. */
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';

/**
 * What a failed call means for a screen (docs/product.md#api-errors-on-screen). The status decides,
 * except where it is ambiguous: a 400 is `validation` when the server's `code` says
 * `validation_failed` (its `fields` belong on a form), else `bad_request`.
 */
export type ApiErrorKind =
  /** Status 0: no answer within the call's time-out ('Request timeout'). */
  | 'timeout'
  /** Status 0: no connection ('Network error. Please check your connection.'). */
  | 'network'
  /** Status 0 for another reason the client words itself (a session renewed in another tab that this tab could not pick up). */
  | 'interrupted'
  /** 400 `validation_failed`: `fields` a form can place. */
  | 'validation'
  /** 400 `bad_request`: a refusal its message explains (an invalid link, a GitHub refusal). */
  | 'bad_request'
  /** 401, left after the client's one token refresh: sign in (again). */
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** 429, with `retryAfter` seconds. */
  | 'rate_limited'
  /** 500 or above: `internal_error`, `service_unavailable` (the database), `bad_gateway` (GitHub). */
  | 'unavailable'
  /** Any other 4xx (413, 415, …). */
  | 'other'
  /** A 2xx answer of the wrong shape ('Invalid response format from server'). */
  | 'bad_response'
  /** Not an API error at all: a thrown bug, a failed import. */
  | 'unexpected';

export interface ApiErrorOutcome {
  kind: ApiErrorKind;
  /**
   * The client's text (docs/product.md#client-error-texts): the server's message, 'Request failed' for an
   * empty one, '{status} {status text}' for a non-JSON answer, the client's own text for status 0, and
   * UNEXPECTED_ERROR_MESSAGE for anything that isn't an API error.
   */
  message: string;
  /** The server's own message, when it sent a non-empty one: what a screen shows before its fallback. */
  serverMessage: string | null;
  /** The server's message per field (`validation`), for `form.setErrors`; empty otherwise. */
  fields: Record<string, string>;
  /** Seconds to wait (`rate_limited`), when the server said. */
  retryAfter: number | undefined;
  /** May heal by itself (a time-out, no answer, a 5xx): worth one quick retry, and no reason to sign out. */
  transient: boolean;
  /** The server refused the request (any 4xx): a quick retry won't help. */
  refused: boolean;
}

/** The one reading of a failed call; screens branch on `kind` instead of on HTTP statuses. */
export function describeApiError(error: unknown): ApiErrorOutcome {
  if (!isApiError(error)) {
    return {
      kind: 'unexpected',
      message: UNEXPECTED_ERROR_MESSAGE,
      serverMessage: null,
      fields: {},
      retryAfter: undefined,
      transient: false,
      refused: false,
    };
  }
  const { status, data } = error;
  return {
    kind: kindOf(error),
    message: error.message,
    serverMessage: data?.message.trim() ? data.message : null,
    fields: data?.fields ?? {},
    retryAfter: data?.retry_after,
    transient: status === 0 || status >= 500,
    refused: status >= 400 && status < 500,
  };
}

export function apiErrorKind(error: unknown): ApiErrorKind {
  return describeApiError(error).kind;
}

/** A time-out, no answer or a 5xx: says nothing about the request or the session (false for non-API errors). */
export function isTransientError(error: unknown): boolean {
  return describeApiError(error).transient;
}

function kindOf({ status, message, data }: ApiError): ApiErrorKind {
  if (status === 0) {
    if (message === TIMEOUT_MESSAGE) return 'timeout';
    return message === NETWORK_ERROR_MESSAGE ? 'network' : 'interrupted';
  }
  if (status >= 500) return 'unavailable';
  switch (status) {
    case 400:
      return data?.code === 'validation_failed' ? 'validation' : 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 429:
      return 'rate_limited';
    default:
      return status >= 400 ? 'other' : 'bad_response';
  }
}

export interface DescribeErrorOptions {
  /** Replaces the client's network text where a screen has its own. */
  network?: string;
}

/**
 * The text a screen shows for a failed call (docs/product.md#client-error-texts): the server's own message,
 * else the screen's fallback ('Login failed', 'Failed to save GitHub token', ...). A time-out or a network
 * failure says so; anything that is not an API error is 'unexpected'.
 */
export function describeError(error: unknown, fallback: string, options: DescribeErrorOptions = {}): string {
  const { kind, message, serverMessage } = describeApiError(error);
  switch (kind) {
    case 'unexpected':
    case 'timeout':
    case 'interrupted':
      return message;
    case 'network':
      return options.network ?? message;
    default:
      return serverMessage ?? fallback;
  }
}

/** The server's field messages of a 400 (`fields`), for `form.setErrors`. */
export function fieldErrors(error: unknown): Record<string, string> {
  return describeApiError(error).fields;
}
