import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * An account of the test provider, by the login typed in its sign-in form, which is also its
 * subject (`sub`: oidc-provider's account id).
 */
export interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  given_name?: string;
  family_name?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts by login; change them between sign-ins (groups, e-mail). */
  accounts: Map<string, ProviderAccount>;
  /** The app environment that points at this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) in-process on 127.0.0.1, port 0: discovery,
 * PKCE required, ID tokens signed with its development keys, userinfo with email, profile and
 * groups claims, RP-initiated sign-out (`end_session_endpoint`). Its development sign-in and
 * consent forms are driven over HTTP by `signInAtProvider`.
 */
export async function startTestProvider(publicUrl: string): Promise<TestProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'repo-tracker';
  const clientSecret = 'provider-client-secret-0123456789abcdef';
  const accounts = new Map<string, ProviderAccount>();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${publicUrl}/auth/oidc/callback`],
        post_logout_redirect_uris: [`${publicUrl}/`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'given_name', 'family_name', 'name'],
      groups: ['groups'],
    },
    cookies: { keys: ['test-provider-cookie-key'] },
    // Set, so the provider doesn't print a notice for each default it uses.
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return { ...account, sub: id };
        },
      };
    },
  });
  // The development sign-in and consent pages warn on the console; the tests know.
  handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    env: {
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_TIMEOUT_MS: '2000',
      PUBLIC_URL: publicUrl,
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A minimal cookie jar: the provider's interaction cookies, by name. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      if (index > 0) this.#cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1));
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Follows the provider's pages from its authorization URL as a browser would, over HTTP: the
 * sign-in form (with `login`), then the consent form (or `deny`: its abort link), until the
 * provider redirects to the app. Answers that redirect (the app's callback URL).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  options: { deny?: boolean; appUrl: string },
): Promise<string> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(options.appUrl)) return url;
    const response = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    jar.take(response);
    method = 'GET';
    body = undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
    const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
    if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
    const prompt = html.match(/name="prompt" value="([^"]+)"/)?.[1];
    if (prompt === 'consent' && options.deny) {
      const abort = html.match(/href="([^"]*\/abort)"/)?.[1];
      if (!abort) throw new Error('no abort link on the consent page');
      url = new URL(abort.replace(/&amp;/g, '&'), url).href;
      continue;
    }
    const fields = new URLSearchParams();
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) {
      fields.set(match[1] ?? '', match[2] ?? '');
    }
    if (prompt === 'login') {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    method = 'POST';
    body = fields.toString();
  }
  throw new Error('the provider never redirected to the app');
}
