import type { Generated } from 'kysely';

/** A provider identity linked to an account (docs/product.md#single-sign-on). */
export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  issuer: string;
  subject: string;
  /** The provider's verified e-mail at the last sign-in. */
  email: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

/** A sign-in in flight: the state's and the browser binding's hashes, nonce and verifier sealed. */
export interface OidcSignInStatesTable {
  id: Generated<number>;
  state_hash: string;
  browser_hash: string;
  secrets_enc: string;
  created_at: string;
  expires_at: string;
}

export type OidcCodePurpose = 'session' | 'link';

/** A one-time code the callback hands the app, stored as its SHA-256. */
export interface OidcExchangeCodesTable {
  id: Generated<number>;
  code_hash: string;
  purpose: OidcCodePurpose;
  user_id: number;
  payload_enc: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** The sealed ID token of a session (a refresh family) that came from single sign-on. */
export interface OidcSessionsTable {
  family_id: string;
  user_id: number;
  id_token_enc: string;
  created_at: string;
  expires_at: string;
}

/** The admin "Sign-in" section's recent events. */
export interface SignInEventsTable {
  id: Generated<number>;
  at: string;
  reason: string;
  detail: string;
  user_id: number | null;
}

export interface OidcTables {
  user_identities: UserIdentitiesTable;
  oidc_sign_in_states: OidcSignInStatesTable;
  oidc_exchange_codes: OidcExchangeCodesTable;
  oidc_sessions: OidcSessionsTable;
  sign_in_events: SignInEventsTable;
}
