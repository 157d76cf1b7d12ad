import { API_TIMEOUT_MS } from '#shared/constants.ts';
import type { ErrorBody, ErrorCode } from '#shared/schemas/errors.ts';
import { readAccessToken } from './storage.ts';

declare global {
  interface Window {
    /**
     * Deployment override of the API origin (docs/product.md#api-conventions), set before the bundle loads.
     */
    __API_BASE__?: string;
  }
}

/** Used only when the page has no usable origin (for example opened from a file). */
const LOCAL_DEFAULT_BASE = 'http://127.0.0.1:3000';

export const TIMEOUT_MESSAGE = 'Request timeout';
export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection.';
export const FALLBACK_ERROR_MESSAGE = 'Request failed';

/**
 * Every failed call (docs/product.md#client-error-texts). `status` is 0 for a time-out or a network failure;
 * `data` is the server's error body (docs/product.md#error-body) when it sent one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly data: ErrorBody | null;

  constructor(message: string, status: number, data: ErrorBody | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The caller's cancellation (TanStack Query passes one); an abort is rethrown as is. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A 401 on this call is final: no token refresh (login, register, refresh and logout never refresh). */
  skipUnauthorizedHandler?: boolean;
}

/**
 * The 401 handling: the auth module installs a handler that runs one shared token
 * refresh, queues concurrent callers and calls `retry` (which sends the request again with the
 * stored token, now the new one), or signs the user out and rethrows. `sentToken` is the
 * access token the failed request carried, so the handler can tell whether someone else has
 * already replaced it. Until a handler is installed a 401 is an ordinary ApiError.
 */
export type UnauthorizedHandler = (
  retry: () => Promise<Response>,
  failed: ApiError,
  sentToken: string | null,
) => Promise<Response>;

/**
 * Calls whose 401 means "wrong credentials" or "session gone", never "access token expired":
 * refreshing for them would loop or hide the real answer.
 */
const NO_REFRESH_PATHS = new Set(['/auth/login', '/auth/register', '/auth/refresh', '/auth/logout']);

function refreshes(path: string): boolean {
  return !NO_REFRESH_PATHS.has(path.split('?')[0] ?? path);
}

export interface ApiClient {
  apiFetch(path: string, options?: RequestOptions): Promise<Response>;
  apiRequest<T>(path: string, schema: ResponseSchema<T>, options?: RequestOptions): Promise<T>;
  setUnauthorizedHandler(handler: UnauthorizedHandler | null): void;
}

/**
 * One client per page. The app uses the default instance below; tests build a second one to
 * stand for another browser tab sharing the same storage.
 */
export function createApiClient(): ApiClient {
  let unauthorizedHandler: UnauthorizedHandler | null = null;

  /**
   * Sends one request and returns the raw Response when it is OK; every failure becomes an
   * ApiError. Use `apiRequest` for JSON answers; this is for downloads (CSV export).
   */
  async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
    const first = await sendOnce(path, options);
    if (first.response.ok) return first.response;

    const failed = await toApiError(first.response);
    const handler = unauthorizedHandler;
    if (first.response.status === 401 && handler && !options.skipUnauthorizedHandler && refreshes(path)) {
      const retried = await handler(
        async () => (await sendOnce(path, options)).response,
        failed,
        first.token,
      );
      if (retried.ok) return retried;
      throw await toApiError(retried);
    }
    throw failed;
  }

  /**
   * JSON call validated against the response schema, so a shape change on the server shows up
   * as an error here instead of as `undefined` deep inside a screen.
   */
  async function apiRequest<T>(
    path: string,
    schema: ResponseSchema<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    const response = await apiFetch(path, options);
    let json: unknown;
    try {
      json = response.status === 204 ? null : await response.json();
    } catch {
      throw new ApiError('Invalid response format from server', response.status);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiError('Invalid response format from server', response.status);
    return parsed.data;
  }

  return {
    apiFetch,
    apiRequest,
    setUnauthorizedHandler: (handler) => {
      unauthorizedHandler = handler;
    },
  };
}

const defaultClient = createApiClient();

/** The page's client (see `createApiClient`). */
export const apiFetch = defaultClient.apiFetch;
export const apiRequest = defaultClient.apiRequest;
export const setUnauthorizedHandler = defaultClient.setUnauthorizedHandler;

export function getApiBase(): string {
  const configured = typeof window === 'undefined' ? undefined : window.__API_BASE__;
  if (configured) return configured.replace(/\/+$/, '');
  const origin = typeof window === 'undefined' ? 'null' : window.location.origin;
  return origin && origin !== 'null' ? origin : LOCAL_DEFAULT_BASE;
}

/**
 * What `apiRequest` validates answers with: a shared zod schema fits as it is. The client
 * itself imports no zod at run time, which keeps zod out of the first-load bundle.
 */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/** A ResponseSchema from a type guard, for the few shell calls that load before any screen. */
export function schemaFromGuard<T>(guard: (data: unknown) => data is T): ResponseSchema<T> {
  return { safeParse: (data) => (guard(data) ? { success: true, data } : { success: false }) };
}

/** One attempt; also reports which access token it carried (bearer when present). */
async function sendOnce(
  path: string,
  options: RequestOptions,
): Promise<{ response: Response; token: string | null }> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    // Every call is JSON; the server takes an empty JSON body as {}.
    'Content-Type': 'application/json',
    ...options.headers,
  };
  const token = readAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;

  try {
    const response = await fetch(`${getApiBase()}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
    return { response, token };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timeout.signal.aborted) throw new ApiError(TIMEOUT_MESSAGE, 0);
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  } finally {
    clearTimeout(timer);
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return new ApiError(`${response.status} ${response.statusText}`.trim(), response.status);
  }
  const data = readErrorBody(body);
  const message = data?.message.trim() ? data.message : FALLBACK_ERROR_MESSAGE;
  return new ApiError(message, response.status, data);
}

/**
 * Picks the error body out of a JSON answer, field by field (a proxy's JSON may
 * differ). Hand-written rather than `errorBodySchema` for the zod-free reason above; the
 * server's schema guarantees `code` is one of `errorCodes`.
 */
function readErrorBody(body: unknown): ErrorBody | null {
  if (typeof body !== 'object' || body === null) return null;
  const { message, code, retry_after, request_id, fields } = body as Record<string, unknown>;
  if (typeof message !== 'string') return null;
  return {
    message,
    code: (typeof code === 'string' ? code : 'internal_error') as ErrorCode,
    ...(typeof retry_after === 'number' ? { retry_after } : {}),
    ...(typeof request_id === 'string' ? { request_id } : {}),
    ...(isStringRecord(fields) ? { fields } : {}),
  };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}
