import * as client from 'openid-client';
import type { AdminSignIn, AuthProviders } from '#shared/schemas/oidc.ts';
import type { AppConfig } from '../../config.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';

export type OidcSettings = NonNullable<AppConfig['oidc']>;

/** The provider could not be reached in time (discovery, or a later call). */
export class ProviderUnavailableError extends Error {}

export interface DiscoveryStatus {
  status: 'ok' | 'error';
  checkedAt: string;
  error: string | null;
  metadata: client.ServerMetadata | null;
}

/**
 * The provider as openid-client sees it (docs/architecture.md#single-sign-on): discovered from
 * the issuer URL lazily on first use, cached, discovered again on the next use after a failure,
 * every call under OIDC_TIMEOUT_MS so a provider that is down fails a sign-in quickly instead of
 * hanging it. http is allowed only for a loopback issuer (the configuration refuses others).
 */
export class OidcProviderClient {
  readonly #settings: OidcSettings;
  readonly #clock: Clock;
  #configuration: client.Configuration | undefined;
  #pending: Promise<client.Configuration> | undefined;
  #status: DiscoveryStatus | undefined;

  constructor(settings: OidcSettings, clock: Clock) {
    this.#settings = settings;
    this.#clock = clock;
  }

  get settings(): OidcSettings {
    return this.#settings;
  }

  /** The last discovery's result, or undefined before the first one. */
  get status(): DiscoveryStatus | undefined {
    return this.#status;
  }

  /** The discovered configuration; throws ProviderUnavailableError when discovery fails. */
  configuration(): Promise<client.Configuration> {
    if (this.#configuration) return Promise.resolve(this.#configuration);
    this.#pending ??= this.#discover().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  /** A call to the provider under the deadline, whatever openid-client's own time-out does. */
  withDeadline<T>(work: Promise<T>): Promise<T> {
    const ms = this.#settings.timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new ProviderUnavailableError(`the provider did not answer within ${ms} ms`)),
        ms,
      );
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }

  async #discover(): Promise<client.Configuration> {
    const { issuerUrl, clientId, clientSecret, timeoutMs, allowInsecure } = this.#settings;
    const options: client.DiscoveryRequestOptions = { timeout: timeoutMs / 1000 };
    if (allowInsecure) options.execute = [client.allowInsecureRequests];
    try {
      const configuration = await this.withDeadline(
        client.discovery(
          new URL(issuerUrl),
          clientId,
          clientSecret,
          clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
          options,
        ),
      );
      this.#configuration = configuration;
      this.#status = {
        status: 'ok',
        checkedAt: isoNow(this.#clock),
        error: null,
        metadata: configuration.serverMetadata(),
      };
      return configuration;
    } catch (error) {
      const message = describeError(error);
      this.#status = { status: 'error', checkedAt: isoNow(this.#clock), error: message, metadata: null };
      throw new ProviderUnavailableError(`discovery at ${issuerUrl} failed: ${message}`);
    }
  }
}

/** Whether an error means the provider was not reachable (network, time-out), not a refusal. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ProviderUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}

/**
 * An error as the sign-in events and the log show it: its message and, for a network failure,
 * the cause's code. Never a response body: the provider's error description at most.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const cause = (error as { cause?: unknown }).cause;
  const causeCode =
    cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string'
      ? ` (${cause.code})`
      : '';
  const providerError =
    'error' in error && typeof error.error === 'string'
      ? ` [${error.error}${'error_description' in error && typeof error.error_description === 'string' ? `: ${error.error_description}` : ''}]`
      : '';
  return `${error.message}${causeCode}${providerError}`.slice(0, 480);
}

/** The provider as the admin "Sign-in" section shows it: settings and discovery's last result. */
export function describeProvider(provider: OidcProviderClient | undefined): AdminSignIn['oidc'] {
  const status = provider?.status;
  const metadata = status?.metadata ?? null;
  return {
    enabled: provider !== undefined,
    issuer: provider?.settings.issuerUrl ?? null,
    client_id: provider?.settings.clientId ?? null,
    scopes: provider?.settings.scopes ?? null,
    admin_groups: provider?.settings.adminGroups ?? null,
    create_accounts: provider?.settings.createAccounts ?? false,
    discovery: {
      status: status?.status ?? 'not_configured',
      checked_at: status?.checkedAt ?? null,
      error: status?.error ?? null,
      authorization_endpoint: metadata?.authorization_endpoint ?? null,
      token_endpoint: metadata?.token_endpoint ?? null,
      userinfo_endpoint: metadata?.userinfo_endpoint ?? null,
      end_session_endpoint: metadata?.end_session_endpoint ?? null,
      jwks_uri: metadata?.jwks_uri ?? null,
    },
  };
}

/** `GET /auth/providers`: what the sign-in screen offers. */
export function describeSignInMethods(config: AppConfig, oidcEnabled: boolean): AuthProviders {
  return {
    password: config.passwordLogin,
    registration: config.passwordLogin && config.registration === 'open',
    oidc: {
      enabled: oidcEnabled,
      button_text: config.oidcButtonText,
      auto_redirect: oidcEnabled && config.oidcAutoRedirect,
    },
  };
}
