import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { REMEMBER_ME_HOURS, SESSION_HOURS } from '#shared/constants.ts';
import type {
  AdminSignIn,
  AuthProviders,
  LinkedIdentities,
  OidcErrorCode,
  OidcLinkDetails,
  OidcSignInResponse,
} from '#shared/schemas/oidc.ts';
import type { AppConfig } from '../../config.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import type { OidcCodePurpose } from '../../db/schema-oidc.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { addSeconds, type Clock, isoNow } from '../../lib/clock.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { hashToken, randomToken, type SecretBox } from '../../lib/secret-box.ts';
import type { AdminService } from '../admin/admin.service.ts';
import type { AccountsService } from '../auth/accounts.service.ts';
import type { TokenService } from '../auth/tokens.service.ts';
import type { CodePayload, StateSecrets } from './oidc.queries.ts';
import * as queries from './oidc.queries.ts';
import { createProviderAccount, OIDC_MESSAGES, readGroups, SignInFailure } from './oidc-accounts.ts';
import {
  describeError,
  describeProvider,
  describeSignInMethods,
  isUnreachable,
  OidcProviderClient,
} from './oidc-client.ts';

/** How long a sign-in may stay at the provider (start → callback). */
export const STATE_SECONDS = 10 * 60;
/** How long the app has to exchange the callback's code for a session. */
export const SESSION_CODE_SECONDS = 2 * 60;
/** How long "Link your account" may take (typing the password). */
export const LINK_CODE_SECONDS = 10 * 60;
/** Sign-in events the admin section shows. */
const EVENTS_SHOWN = 50;

export interface OidcDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: AppConfig;
  box: SecretBox;
  tokens: TokenService;
  accounts: AccountsService;
  admin: Pick<AdminService, 'setAdminFromProvider'>;
  log: FastifyBaseLogger;
}

export interface StartResult {
  /** The provider's authorization URL. */
  location: string;
  /** The browser binding, set as an HttpOnly cookie for the callback. */
  browser: string;
}

/**
 * Single sign-on with an OpenID Connect provider (docs/product.md#single-sign-on,
 * docs/security.md#oidc-sign-in): authorization code flow with PKCE (S256), state and nonce, the
 * ID token validated by openid-client; identities by issuer and subject; sessions are the
 * ordinary ones (the tokens service), reached through a one-time code, never a token in a URL.
 */
export class OidcService {
  readonly #deps: OidcDeps;
  readonly #provider: OidcProviderClient | undefined;

  constructor(deps: OidcDeps) {
    this.#deps = deps;
    this.#provider = deps.config.oidc ? new OidcProviderClient(deps.config.oidc, deps.clock) : undefined;
  }

  get enabled(): boolean {
    return this.#provider !== undefined;
  }

  providers(): AuthProviders {
    return describeSignInMethods(this.#deps.config, this.enabled);
  }

  /** The callback URL registered at the provider. */
  get redirectUri(): string {
    return `${this.#deps.config.publicUrl}/auth/oidc/callback`;
  }

  /** Where the web app shows the sign-in screen; the callback's answers are its query. */
  appUrl(params: Record<string, string>): string {
    return `${this.#deps.config.publicUrl}/#/login?${new URLSearchParams(params).toString()}`;
  }

  #requireProvider(): OidcProviderClient {
    if (!this.#provider) throw notFound(OIDC_MESSAGES.notConfigured);
    return this.#provider;
  }

  // ---- start → provider → callback ------------------------------------------------------------

  /**
   * A new sign-in: state, nonce and PKCE verifier stored (sealed) under the state's hash with the
   * browser binding's hash, and the provider's authorization URL. Throws SignInFailure
   * (`provider_unavailable`) when discovery fails; the route answers the app's error URL then.
   */
  async start(returnTo: string | null, rememberMe: boolean): Promise<StartResult> {
    const provider = this.#requireProvider();
    const { db, clock, box } = this.#deps;
    let configuration: client.Configuration;
    try {
      configuration = await provider.configuration();
    } catch (error) {
      throw await this.#failed(new SignInFailure('provider_unavailable', describeError(error)));
    }
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const challenge = await client.calculatePKCECodeChallenge(verifier);
    const browser = randomToken(32);
    const now = clock.now();
    const stateHash = hashToken(state);
    const secrets: StateSecrets = { nonce, verifier, return_to: returnTo, remember_me: rememberMe };
    await queries.deleteExpiredSignInStates(db, now.toISOString());
    await queries.insertSignInState(db, {
      state_hash: stateHash,
      browser_hash: hashToken(browser),
      secrets_enc: box.seal(JSON.stringify(secrets), `oidc-state:${stateHash}`),
      created_at: now.toISOString(),
      expires_at: addSeconds(now, STATE_SECONDS).toISOString(),
    });
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: provider.settings.scopes,
      state,
      nonce,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return { location: url.href, browser };
  }

  /**
   * The provider's answer. Always an app URL: `oidc_code` (sign in), `oidc_link` (prove the
   * password of the account with this e-mail) or `oidc_error`; every failure is also a row of
   * the admin "Sign-in" section.
   */
  async callback(
    query: { state?: string; code?: string; error?: string; error_description?: string },
    rawQuery: string,
    browser: string | undefined,
  ): Promise<string> {
    const provider = this.#requireProvider();
    try {
      return await this.#callback(provider, query, rawQuery, browser);
    } catch (error) {
      const failure =
        error instanceof SignInFailure
          ? error
          : new SignInFailure(
              isUnreachable(error) ? 'provider_unavailable' : 'token_invalid',
              describeError(error),
            );
      await this.#failed(failure);
      return this.appUrl({ oidc_error: failure.code });
    }
  }

  async #callback(
    provider: OidcProviderClient,
    query: { state?: string; code?: string; error?: string; error_description?: string },
    rawQuery: string,
    browser: string | undefined,
  ): Promise<string> {
    const { db, clock, box } = this.#deps;
    if (!query.state) throw new SignInFailure('state_mismatch', 'the answer carried no state');
    const stateHash = hashToken(query.state);
    const row = await queries.takeSignInState(db, stateHash);
    if (!row) throw new SignInFailure('state_mismatch', 'unknown or already used state');
    if (row.expires_at <= isoNow(clock)) throw new SignInFailure('state_mismatch', 'the sign-in expired');
    // The state must come back to the browser that started the sign-in (login CSRF).
    if (!browser || hashToken(browser) !== row.browser_hash) {
      throw new SignInFailure('state_mismatch', 'the sign-in was started in another browser');
    }
    if (query.error) {
      const code: OidcErrorCode = query.error === 'access_denied' ? 'access_denied' : 'provider_error';
      const description = query.error_description ? `: ${query.error_description}` : '';
      throw new SignInFailure(code, `the provider answered ${query.error}${description}`.slice(0, 480));
    }
    const secrets = JSON.parse(box.open(row.secrets_enc, `oidc-state:${stateHash}`)) as StateSecrets;
    const configuration = await provider.configuration().catch((error: unknown) => {
      throw new SignInFailure('provider_unavailable', describeError(error));
    });
    const tokens = await provider.withDeadline(
      client.authorizationCodeGrant(configuration, new URL(`${this.redirectUri}?${rawQuery}`), {
        pkceCodeVerifier: secrets.verifier,
        expectedState: query.state,
        expectedNonce: secrets.nonce,
        idTokenExpected: true,
      }),
    );
    const idClaims = tokens.claims();
    const idToken = tokens.id_token;
    if (!idClaims || !idToken) throw new SignInFailure('token_invalid', 'the provider sent no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    if (configuration.serverMetadata().userinfo_endpoint) {
      const userinfo = await provider.withDeadline(
        client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub),
      );
      claims = { ...userinfo, ...idClaims };
    }
    return this.#resolve(
      { issuer: idClaims.iss, subject: idClaims.sub, claims, idToken },
      { return_to: secrets.return_to, remember_me: secrets.remember_me },
    );
  }

  /** The account of a validated identity: signed in, created, or to be linked by its password. */
  async #resolve(
    identity: { issuer: string; subject: string; claims: Record<string, unknown>; idToken: string },
    after: { return_to: string | null; remember_me: boolean },
  ): Promise<string> {
    const { db, clock, accounts } = this.#deps;
    const settings = this.#requireProvider().settings;
    const { claims } = identity;
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : null;
    const emailVerified = claims.email_verified === true || claims.email_verified === 'true';
    const groups = readGroups(claims[settings.groupsClaim]);
    const now = isoNow(clock);

    const known = await queries.findIdentity(db, identity.issuer, identity.subject);
    if (known) {
      const user = await accounts.find(known.user_id);
      if (user?.is_active !== 1)
        throw new SignInFailure('account_inactive', 'the account is deactivated', known.user_id);
      await queries.touchIdentity(db, known.id, email && emailVerified ? email : null, now);
      return this.#signedIn(user, groups, { id_token: identity.idToken, ...after });
    }

    if (!email) throw new SignInFailure('email_missing', 'the provider shared no e-mail address');
    if (!emailVerified) throw new SignInFailure('email_unverified', `the provider has not verified ${email}`);
    const existing = await accounts.findByEmail(email);
    if (existing) {
      // Never taken over by e-mail: the password proves the account once (docs/security.md#oidc-sign-in).
      if (existing.password_set !== 1) {
        throw new SignInFailure(
          'email_taken',
          `${email} belongs to an account without a password`,
          existing.id,
        );
      }
      if (existing.is_active !== 1)
        throw new SignInFailure('account_inactive', 'the account is deactivated', existing.id);
      const code = await this.#issueCode('link', existing.id, LINK_CODE_SECONDS, {
        id_token: identity.idToken,
        ...after,
        issuer: identity.issuer,
        subject: identity.subject,
        email,
        groups,
      });
      return this.appUrl({ oidc_link: code });
    }
    if (!settings.createAccounts) {
      throw new SignInFailure(
        'account_not_found',
        `no account is linked to ${email} and OIDC_CREATE_ACCOUNTS is off`,
      );
    }
    const user = await createProviderAccount(
      { db: this.#deps.db, clock: this.#deps.clock, accounts: this.#deps.accounts },
      identity,
      email,
      claims,
      settings.adminGroups === null,
    );
    return this.#signedIn(user, groups, { id_token: identity.idToken, ...after });
  }

  /** A signed-in account: groups applied, last sign-in written, a one-time code for the app. */
  async #signedIn(user: UserRow, groups: string[], payload: CodePayload): Promise<string> {
    await this.#applyGroups(user.id, groups);
    const now = isoNow(this.#deps.clock);
    await this.#deps.accounts.update(user.id, { last_login_at: now, updated_at: now });
    const code = await this.#issueCode('session', user.id, SESSION_CODE_SECONDS, payload);
    return this.appUrl({ oidc_code: code });
  }

  /** OIDC_ADMIN_GROUPS: in a listed group → admin, otherwise member (the last admin stays one). */
  async #applyGroups(userId: number, groups: string[]): Promise<void> {
    const adminGroups = this.#requireProvider().settings.adminGroups;
    if (adminGroups === null) return;
    const admin = groups.some((group) => adminGroups.includes(group));
    const change = await this.#deps.admin.setAdminFromProvider(userId, admin);
    if (change === 'last_admin_kept') {
      await this.#event(
        'last_admin_kept',
        'not in an admin group at the provider, but kept as admin: it is the last active admin',
        userId,
      );
    }
  }

  async #issueCode(purpose: OidcCodePurpose, userId: number, seconds: number, payload: CodePayload) {
    const { db, clock, box } = this.#deps;
    const code = randomToken(32);
    const codeHash = hashToken(code);
    const now = clock.now();
    await queries.deleteExpiredExchangeCodes(db, now.toISOString());
    await queries.insertExchangeCode(db, {
      code_hash: codeHash,
      purpose,
      user_id: userId,
      payload_enc: box.seal(JSON.stringify(payload), `oidc-code:${codeHash}`),
      created_at: now.toISOString(),
      expires_at: addSeconds(now, seconds).toISOString(),
      used_at: null,
    });
    return code;
  }

  // ---- the app's side: exchange, link ---------------------------------------------------------

  /** `POST /auth/oidc/exchange`: a one-time code for the ordinary session answer. */
  async exchange(code: string): Promise<OidcSignInResponse> {
    this.#requireProvider();
    const { db, clock } = this.#deps;
    const row = await queries.findExchangeCode(db, hashToken(code), 'session');
    if (!row || !(await queries.spendExchangeCode(db, row.id, isoNow(clock)))) {
      throw badRequest(OIDC_MESSAGES.codeInvalid);
    }
    const user = await this.#deps.accounts.find(row.user_id);
    if (user?.is_active !== 1) throw new AppError(403, 'forbidden', OIDC_MESSAGES.inactive);
    return this.#startSession(user, this.#openPayload(row.payload_enc, row.code_hash));
  }

  /**
   * `POST /auth/oidc/link`: "Link your account". The password of the account whose e-mail the
   * provider verified proves it is theirs; the identity is linked and the person signed in. A
   * wrong password keeps the code (until it expires; the route limits attempts).
   */
  async link(code: string, password: string): Promise<OidcSignInResponse> {
    const { db, clock, accounts } = this.#deps;
    const row = await this.#liveLinkCode(code);
    const now = isoNow(clock);
    const user = await this.#deps.accounts.find(row.user_id);
    if (!user || !(await verifyPassword(user.password_hash, password))) {
      throw unauthorized(OIDC_MESSAGES.linkPasswordWrong);
    }
    if (user.is_active !== 1) throw new AppError(403, 'forbidden', OIDC_MESSAGES.inactive);
    const payload = this.#openPayload(row.payload_enc, row.code_hash);
    const { issuer, subject, email } = payload;
    if (!issuer || !subject || !email) throw badRequest(OIDC_MESSAGES.codeInvalid);
    try {
      await db.transaction().execute(async (trx) => {
        if (!(await queries.spendExchangeCode(trx, row.id, now))) throw badRequest(OIDC_MESSAGES.codeInvalid);
        await queries.insertIdentity(trx, { user_id: user.id, issuer, subject, email, now });
        // The provider verified this address and the password proved the account.
        await accounts.update(user.id, { is_verified: 1, last_login_at: now, updated_at: now }, trx);
        await writeAudit(trx, {
          actorId: user.id,
          action: 'oidc.identity.link',
          target: `user:${user.id}`,
          detail: { issuer },
          at: now,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(OIDC_MESSAGES.alreadyLinked);
      throw error;
    }
    await this.#applyGroups(user.id, payload.groups ?? []);
    const updated = await this.#deps.accounts.find(user.id);
    if (updated?.is_active !== 1) throw new AppError(403, 'forbidden', OIDC_MESSAGES.inactive);
    return this.#startSession(updated, payload);
  }

  /** `POST /auth/oidc/link/details`: the e-mail of the account a link code links (to show it). */
  async linkDetails(code: string): Promise<OidcLinkDetails> {
    const row = await this.#liveLinkCode(code);
    return {
      email: this.#openPayload(row.payload_enc, row.code_hash).email ?? '',
      expires_at: row.expires_at,
    };
  }

  async #liveLinkCode(code: string) {
    this.#requireProvider();
    const row = await queries.findExchangeCode(this.#deps.db, hashToken(code), 'link');
    if (!row || row.used_at !== null || row.expires_at <= isoNow(this.#deps.clock)) {
      throw badRequest(OIDC_MESSAGES.codeInvalid);
    }
    return row;
  }

  #openPayload(sealed: string, codeHash: string): CodePayload {
    return JSON.parse(this.#deps.box.open(sealed, `oidc-code:${codeHash}`)) as CodePayload;
  }

  /** The ordinary session (tokens service), its ID token kept sealed for the provider's sign-out. */
  async #startSession(user: UserRow, payload: CodePayload): Promise<OidcSignInResponse> {
    const { db, clock, tokens, box, accounts } = this.#deps;
    const issued = await tokens.startSession(user, payload.remember_me);
    const family = await tokens.familyOf(issued.refresh_token);
    if (family) {
      const now = clock.now();
      await queries.deleteExpiredOidcSessions(db, user.id, now.toISOString());
      await queries.insertOidcSession(db, {
        family_id: family.familyId,
        user_id: user.id,
        id_token_enc: box.seal(payload.id_token, `oidc-session:${family.familyId}`),
        created_at: now.toISOString(),
        // The family's own absolute lifetime; swept at the account's next single sign-on.
        expires_at: addSeconds(
          now,
          (payload.remember_me ? REMEMBER_ME_HOURS : SESSION_HOURS) * 3600,
        ).toISOString(),
      });
    }
    return {
      ...issued,
      user: accounts.present(user),
      message: OIDC_MESSAGES.loginOk,
      return_to: payload.return_to,
    };
  }

  // ---- sign-out, profile, admin ---------------------------------------------------------------

  /** Sign-out: the provider's end-session URL for a session that came from it (its row forgotten). */
  async endSessionUrl(familyId: string): Promise<string | undefined> {
    const { db, box, config } = this.#deps;
    const row = await queries.findOidcSession(db, familyId);
    if (!row) return undefined;
    await queries.deleteOidcSession(db, familyId);
    if (!this.#provider) return undefined;
    try {
      const configuration = await this.#provider.configuration();
      if (!configuration.serverMetadata().end_session_endpoint) return undefined;
      const idToken = box.open(row.id_token_enc, `oidc-session:${familyId}`);
      return client.buildEndSessionUrl(configuration, {
        id_token_hint: idToken,
        post_logout_redirect_uri: `${config.publicUrl}/`,
      }).href;
    } catch (error) {
      this.#deps.log.warn(
        { reason: describeError(error) },
        'single sign-on: no end-session URL for sign-out',
      );
      return undefined;
    }
  }

  async identities(userId: number): Promise<LinkedIdentities> {
    const { db } = this.#deps;
    const [rows, user] = await Promise.all([
      queries.listIdentities(db, userId),
      this.#deps.accounts.find(userId),
    ]);
    return { identities: rows, has_password: user?.password_set === 1 };
  }

  /** The admin "Sign-in" section: the configuration, discovery's result (tried now if needed), events. */
  async adminSummary(): Promise<AdminSignIn> {
    const { db, config } = this.#deps;
    const provider = this.#provider;
    if (provider && provider.status?.status !== 'ok') await provider.configuration().catch(() => undefined);
    const events = await queries.listSignInEvents(db, EVENTS_SHOWN);
    return {
      password_login: config.passwordLogin,
      oidc: describeProvider(provider),
      events: events.map((event) => ({ ...event, username: event.username ?? null })),
    };
  }

  async #failed(failure: SignInFailure): Promise<SignInFailure> {
    await this.#event(failure.code, failure.message, failure.userId);
    return failure;
  }

  /** A row of the admin section and a log line: the reason and detail, never a code or token. */
  async #event(reason: string, detail: string, userId: number | null): Promise<void> {
    const { db, clock, log } = this.#deps;
    log.warn({ reason, detail }, 'single sign-on: sign-in did not go through');
    await queries.insertSignInEvent(db, {
      at: isoNow(clock),
      reason,
      detail: detail.slice(0, 500),
      user_id: userId,
    });
  }
}
