import { z } from 'zod';
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_NAME_MAX } from '../constants.ts';

/**
 * Personal API tokens (docs/product.md#api-tokens): `read` opens GET and HEAD only, `write` what
 * a member can do on screen, `admin` the admin routes too (admins only). Never the account's own
 * security and secret-setting routes.
 */
export const apiTokenScopes = ['read', 'write', 'admin'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

export const API_TOKEN_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${API_TOKEN_NAME_MAX} characters`,
  scope: 'Choose read, write or admin',
  expiry: `Choose ${API_TOKEN_EXPIRY_DAYS.join(', ')} days or never`,
} as const;

export const apiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scope: z.enum(apiTokenScopes),
    prefix: z.string().describe('the first characters of the token, to recognise it'),
    created_at: z.string(),
    expires_at: z.string().nullable().describe('null: never expires'),
    last_used_at: z.string().nullable().describe('updated at most once a minute'),
    last_used_ip: z.string().nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) }).meta({ id: 'ApiTokenList' });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

/** The new token, shown once: only its SHA-256 is kept. */
export const apiTokenCreatedSchema = z
  .object({ token: z.string().describe('`rt_` and 43 characters; shown once'), api_token: apiTokenSchema })
  .meta({ id: 'ApiTokenCreated' });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const createApiTokenBodySchema = z.object({
  name: z
    .string({ error: API_TOKEN_MESSAGES.nameRequired })
    .trim()
    .min(1, API_TOKEN_MESSAGES.nameRequired)
    .max(API_TOKEN_NAME_MAX, API_TOKEN_MESSAGES.nameTooLong),
  scope: z.enum(apiTokenScopes, { error: API_TOKEN_MESSAGES.scope }),
  expires_in_days: z
    .union(
      [
        z.literal(API_TOKEN_EXPIRY_DAYS[0]),
        z.literal(API_TOKEN_EXPIRY_DAYS[1]),
        z.literal(API_TOKEN_EXPIRY_DAYS[2]),
      ],
      {
        error: API_TOKEN_MESSAGES.expiry,
      },
    )
    .nullable(),
});
export type CreateApiTokenBody = z.infer<typeof createApiTokenBodySchema>;

/** A token's id: PostgreSQL's integer range, so junk is a 400 and never reaches the database. */
export const apiTokenParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid token id.' })
    .int('Invalid token id.')
    .positive('Invalid token id.')
    .max(2_147_483_647, 'Invalid token id.'),
});

export const apiTokensRevokedSchema = z
  .object({ revoked: z.number().int() })
  .meta({ id: 'ApiTokensRevoked' });
export type ApiTokensRevoked = z.infer<typeof apiTokensRevokedSchema>;
