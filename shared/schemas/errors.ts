import { z } from 'zod';

/** Machine-readable error codes; the `code` field of every error body (docs/product.md#error-body). */
export const errorCodes = [
  'bad_request',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  'bad_gateway',
] as const;

export const errorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/**
 * The one error body of the API (docs/product.md#error-body): it is what the web client exposes as `data`.
 * `retry_after` comes with 429, `request_id` with 5xx, `fields` with 400 validation errors.
 */
export const errorBodySchema = z
  .object({
    message: z.string(),
    code: errorCodeSchema,
    retry_after: z.number().int().nonnegative().optional(),
    request_id: z.string().optional(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorBody = z.infer<typeof errorBodySchema>;
