import { isApiError, NETWORK_ERROR_MESSAGE } from './api-client.ts';

/** For anything that is not an answer (or a non-answer) of the API. */
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';

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
  if (!isApiError(error)) return UNEXPECTED_ERROR_MESSAGE;
  if (error.status === 0) {
    return error.message === NETWORK_ERROR_MESSAGE && options.network ? options.network : error.message;
  }
  return error.data?.message.trim() ? error.data.message : fallback;
}

/** The server's field messages of a 400 (`fields`), for `form.setErrors`. */
export function fieldErrors(error: unknown): Record<string, string> {
  return isApiError(error) && error.data?.fields ? error.data.fields : {};
}
