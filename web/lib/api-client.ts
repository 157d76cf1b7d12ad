import { API_TIMEOUT_MS } from '../../shared/constants.ts';
import type { ErrorBody, ErrorCode } from '../../shared/schemas/errors.ts';
import { readAccessToken } from './storage.ts';

declare global {
  interface Window {
    /** Deployment override of the API origin (SPEC §7), set before the bundle loads. */
    __API_BASE__?: string;
  }
}

/** SPEC §7: used only when the page has no usable origin (for example opened from a file). */
const LOCAL_DEFAULT_BASE = 'http://127.0.0.1:3000';

export const TIMEOUT_MESSAGE = 'Request timeout';
export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection.';
export const FALLBACK_ERROR_MESSAGE = 'Request failed';

/**
 * Every failed call (SPEC §8). `status` is 0 for a time-out or a network failure; `data` is
 * the server's error body (DESIGN §4) when it sent one.
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
  /** Set by the refresh call itself so a 401 there can't start another refresh. */
  skipUnauthorizedHandler?: boolean;
}

/**
 * Seam for SPEC §4's 401 handling: the auth module installs a handler that runs one shared
 * token refresh, queues concurrent callers and calls `retry` with the new token (or signs
 * the user out and rethrows). Until then a 401 is an ordinary ApiError.
 */
export type UnauthorizedHandler = (retry: () => Promise<Response>, failed: ApiError) => Promise<Response>;

let unauthorizedHandler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  unauthorizedHandler = handler;
}

export function getApiBase(): string {
  const configured = typeof window === 'undefined' ? undefined : window.__API_BASE__;
  if (configured) return configured.replace(/\/+$/, '');
  const origin = typeof window === 'undefined' ? 'null' : window.location.origin;
  return origin && origin !== 'null' ? origin : LOCAL_DEFAULT_BASE;
}

/**
 * Sends one request and returns the raw Response when it is OK; every failure becomes an
 * ApiError. Use `apiRequest` for JSON answers; this is for downloads (CSV export).
 */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<Response> {
  const send = () => sendOnce(path, options);
  const response = await send();
  if (response.ok) return response;

  const failed = await toApiError(response);
  if (response.status === 401 && unauthorizedHandler && !options.skipUnauthorizedHandler) {
    const retried = await unauthorizedHandler(send, failed);
    if (retried.ok) return retried;
    throw await toApiError(retried);
  }
  throw failed;
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

/**
 * JSON call validated against the response schema, so a shape change on the server shows up
 * as an error here instead of as `undefined` deep inside a screen.
 */
export async function apiRequest<T>(
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

async function sendOnce(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    // SPEC §7: every call is JSON; the server takes an empty JSON body as {}.
    'Content-Type': 'application/json',
    ...options.headers,
  };
  const token = readAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), options.timeoutMs ?? API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;

  try {
    return await fetch(`${getApiBase()}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
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
 * Picks DESIGN §4's error body out of a JSON answer, field by field (a proxy's JSON may
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
