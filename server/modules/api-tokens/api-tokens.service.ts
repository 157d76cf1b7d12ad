import type { Kysely } from 'kysely';
import { API_TOKENS_PER_MEMBER_MAX } from '#shared/constants.ts';
import type {
  ApiToken,
  ApiTokenCreated,
  ApiTokenList,
  ApiTokenScope,
  ApiTokensRevoked,
  CreateApiTokenBody,
} from '#shared/schemas/api-tokens.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../lib/app-error.ts';
import { addMs, type Clock } from '../../lib/clock.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import * as queries from './api-tokens.queries.ts';

/** Every token starts so: recognisable in a header, a script or a secret scanner. */
export const API_TOKEN_PREFIX = 'rt_';
/** Characters of the token kept in clear to recognise it: `rt_` and 8 more. */
const VISIBLE_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 8;
/** Last use is written at most this often per token. */
const TOUCH_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;

export const API_TOKEN_ERRORS = {
  invalid: 'Invalid, expired or revoked API token.',
  adminOnly: 'Only administrators can create admin tokens.',
  tooMany: `You can keep at most ${API_TOKENS_PER_MEMBER_MAX} API tokens. Revoke one first.`,
  notFound: 'API token not found',
} as const;

/** The caller an accepted token stands for; `is_admin` is the owner's flag now, not at creation. */
export interface ApiTokenCaller {
  tokenId: number;
  userId: number;
  scope: ApiTokenScope;
  ownerIsAdmin: boolean;
}

export interface ApiTokensDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/**
 * Personal API tokens (docs/product.md#api-tokens, docs/security.md#c8): `rt_` and 32 random
 * bytes, shown once, stored as SHA-256 with a visible prefix; checked on every request against
 * the owner's current flags; last use written at most once a minute.
 */
export class ApiTokensService {
  readonly #deps: ApiTokensDeps;

  constructor(deps: ApiTokensDeps) {
    this.#deps = deps;
  }

  /** Whether a bearer value is one of ours by its shape (anything else is a session JWT). */
  isApiToken(bearer: string): boolean {
    return bearer.startsWith(API_TOKEN_PREFIX);
  }

  async list(userId: number): Promise<ApiTokenList> {
    return { tokens: (await queries.listApiTokens(this.#deps.db, userId)).map(present) };
  }

  /** `isAdmin`: the creator's flag now; only an admin may create an `admin` token. */
  async create(userId: number, isAdmin: boolean, body: CreateApiTokenBody): Promise<ApiTokenCreated> {
    if (body.scope === 'admin' && !isAdmin) throw forbidden(API_TOKEN_ERRORS.adminOnly);
    const { db, clock } = this.#deps;
    const now = clock.now();
    const token = `${API_TOKEN_PREFIX}${randomToken(32)}`;
    const row = await db.transaction().execute(async (trx) => {
      await queries.deleteExpiredApiTokens(trx, userId, now.toISOString());
      if ((await queries.countApiTokens(trx, userId)) >= API_TOKENS_PER_MEMBER_MAX) {
        throw conflict(API_TOKEN_ERRORS.tooMany);
      }
      return queries.insertApiToken(trx, {
        user_id: userId,
        name: body.name,
        scope: body.scope,
        token_hash: hashToken(token),
        prefix: token.slice(0, VISIBLE_PREFIX_LENGTH),
        created_at: now.toISOString(),
        expires_at:
          body.expires_in_days === null ? null : addMs(now, body.expires_in_days * DAY_MS).toISOString(),
      });
    });
    return { token, api_token: present(row) };
  }

  async revoke(userId: number, id: number): Promise<ApiTokensRevoked> {
    if (!(await queries.deleteApiToken(this.#deps.db, userId, id))) throw notFound(API_TOKEN_ERRORS.notFound);
    return { revoked: 1 };
  }

  /** Every token of the member: "Revoke all tokens", and deactivation (in its transaction). */
  async revokeAll(userId: number, db: Kysely<Database> = this.#deps.db): Promise<ApiTokensRevoked> {
    return { revoked: await queries.deleteUserApiTokens(db, userId) };
  }

  /** Demotion: the member's admin tokens become write tokens, in the demotion's transaction. */
  async endAdminScope(userId: number, db: Kysely<Database> = this.#deps.db): Promise<void> {
    await queries.downgradeAdminApiTokens(db, userId);
  }

  /**
   * The caller behind a presented token, or 401 (unknown, expired, revoked, or its owner
   * deactivated or unverified: one answer for all). Records the last use at most once a minute.
   */
  async authenticate(presented: string, ip: string): Promise<ApiTokenCaller> {
    const { db, clock } = this.#deps;
    const row = await queries.findApiTokenByHash(db, hashToken(presented));
    const now = clock.now();
    const nowIso = now.toISOString();
    // An unverified owner (an admin can mark one so) is refused as a deactivated one is.
    if (
      row?.is_active !== 1 ||
      row.is_verified !== 1 ||
      (row.expires_at !== null && row.expires_at <= nowIso)
    ) {
      throw unauthorized(API_TOKEN_ERRORS.invalid);
    }
    const staleBefore = addMs(now, -TOUCH_EVERY_MS).toISOString();
    if (row.last_used_at === null || row.last_used_at < staleBefore) {
      await queries.touchApiToken(db, row.id, nowIso, ip, staleBefore);
    }
    return { tokenId: row.id, userId: row.user_id, scope: row.scope, ownerIsAdmin: row.is_admin === 1 };
  }
}

function present(row: Omit<ApiToken, 'scope'> & { scope: string }): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiTokenScope,
    prefix: row.prefix,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    last_used_ip: row.last_used_ip,
  };
}
