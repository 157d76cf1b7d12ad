import type { Generated } from 'kysely';
import type { ApiTokenScope } from '#shared/schemas/api-tokens.ts';

/** A member's personal API token (docs/product.md#api-tokens), stored as its SHA-256 only. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: ApiTokenScope;
  token_hash: string;
  /** `rt_` and the first 8 characters, shown to recognise the token. */
  prefix: string;
  created_at: string;
  /** Null: never expires. */
  expires_at: string | null;
  /** Written at most once a minute per token. */
  last_used_at: string | null;
  last_used_ip: string | null;
}

export interface ApiTokenTables {
  api_tokens: ApiTokensTable;
}
