import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorBody, ErrorCode } from '#shared/schemas/errors.ts';
import { isDatabaseUnavailable } from '../db/database.ts';
import { GitHubError, toAppError } from '../github/github-error.ts';
import { isApiPath } from '../lib/api-paths.ts';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';

const GENERIC_5XX = 'An unexpected error occurred. Please try again.';
const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

/** Fastify's own client errors, mapped to the error body's codes and readable messages. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported content type: send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'bad_request',
    message: 'Invalid Content-Length header',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload_too_large',
    message: 'Request body is larger than 1 MiB',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'bad_request',
    message: 'Request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'bad_request',
    message: 'Request body is not valid JSON',
  },
  // Router errors, raised before any route runs (see `sendFrameworkError`).
  FST_ERR_BAD_URL: {
    status: 400,
    code: 'bad_request',
    message: 'The request URL is not valid (malformed percent-encoding)',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    status: 414,
    code: 'bad_request',
    message: 'A path parameter of the request URL is too long',
  },
};

/**
 * One error body everywhere (docs/product.md#error-body): `{ message, code }` plus `fields` for validation,
 * `retry_after` for 429 and `request_id` for 5xx, whose message never echoes internals
 * (docs/security.md#g2).
 */
async function errors(app: FastifyInstance, options: { clock: Clock }) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Services let GitHub's failures through as they are; here they become answers, in one place.
    const answered = error instanceof GitHubError ? toAppError(error, options.clock.now()) : error;
    const { status, body } = toErrorBody(answered, request);
    if (status >= 500) request.log.error({ err: error, request_id: request.id }, 'request failed');
    if (body.retry_after !== undefined) reply.header('retry-after', String(body.retry_after));
    return reply.code(status).send(body);
  });

  app.setNotFoundHandler((request, reply) => sendNotFound(request, reply));
}

/**
 * Fastify's `frameworkErrors` option (set in app.ts). The router's own errors (malformed
 * percent-encoding such as `/repositories/%`, a path parameter over `maxParamLength`) never
 * reach `setErrorHandler`: without this hook Fastify answers them with its default
 * `{ error, code: 'FST_ERR_…', message, statusCode }` body, which echoes the raw path and
 * isn't ours (found by server/fuzz.property.test.ts).
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = toErrorBody(error, request);
  if (status >= 500) request.log.error({ err: error, request_id: request.id }, 'request failed');
  return reply.code(status).send(body);
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = request.url.split('?')[0] ?? '/';
  const body: ErrorBody = {
    message: isApiPath(path) ? `Route ${request.method} ${path} not found` : 'Not found',
    code: 'not_found',
  };
  return reply.code(404).send(body);
}

function toErrorBody(
  error: FastifyError | AppError,
  request: FastifyRequest,
): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    const body: ErrorBody = { message: error.message, code: error.code };
    if (error.fields) body.fields = error.fields;
    if (error.retryAfter !== undefined) body.retry_after = error.retryAfter;
    if (error.statusCode >= 500) {
      body.request_id = request.id;
    }
    return { status: error.statusCode, body };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const key = field || error.validationContext || 'body';
      fields[key] ??= issue.message ?? 'Invalid value';
    }
    const first = Object.values(fields)[0] ?? 'Invalid request';
    return { status: 400, body: { message: first, code: 'validation_failed', fields } };
  }
  // The database connection was cut or refused, or a statement ran out of time: a passing
  // fault (docs/operations.md#database-faults), so 503 rather than 500; the pool reconnects.
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      body: { message: DATABASE_UNAVAILABLE, code: 'service_unavailable', request_id: request.id },
    };
  }
  if (isResponseSerializationError(error)) {
    return { status: 500, body: { message: GENERIC_5XX, code: 'internal_error', request_id: request.id } };
  }
  const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (known) return { status: known.status, body: { message: known.message, code: known.code } };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, body: { message: error.message || 'Bad request', code: codeForStatus(status) } };
  }
  return { status: 500, body: { message: GENERIC_5XX, code: 'internal_error', request_id: request.id } };
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    default:
      return 'bad_request';
  }
}

export default fp(errors, { name: 'errors' });
