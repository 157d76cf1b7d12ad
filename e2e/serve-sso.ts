/**
 * The single sign-on journey's world (e2e/sso.spec.ts), started by e2e/serve.ts beside the main
 * instance: a real OpenID provider (oidc-provider in-process on 127.0.0.1, with its own sign-in,
 * consent and sign-out pages) and two more instances of the built app, each on SQLite in its own
 * temporary data folder, because single sign-on's switches hold for a whole instance:
 * - E2E_PORT + 3 signs in with that provider, sends the sign-in screen straight to it
 *   (OIDC_AUTO_REDIRECT=on) and makes members of its `tracker-admins` group admins;
 * - E2E_PORT + 4 is configured for a provider that is down (a closed port on 127.0.0.1).
 * The journeys' control server answers GET /sso with their addresses, and POST /sso/accounts
 * (JSON: `login` and the account's claims) adds an account to the provider.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { type ProviderAccount, startTestProvider } from '../test/helpers/oidc-provider.ts';

export const SSO_ADMIN_GROUP = 'tracker-admins';

export interface SsoWorld {
  /** Answers the control server's /sso requests; false for any other path. */
  handle(request: IncomingMessage, response: ServerResponse, url: URL): boolean;
  close(): Promise<void>;
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startSsoWorld(
  basePort: number,
  shared: { smtpUrl: string; githubUrl: string; webDistDir: string | undefined },
): Promise<SsoWorld> {
  const ssoUrl = `http://127.0.0.1:${basePort + 3}`;
  const downUrl = `http://127.0.0.1:${basePort + 4}`;
  const provider = await startTestProvider(ssoUrl);
  const downIssuer = `http://127.0.0.1:${await closedPort()}`;
  const dataDirs: string[] = [];
  const apps: FastifyInstance[] = [];

  async function startInstance(port: number, env: Record<string, string>): Promise<FastifyInstance> {
    const dataDir = mkdtempSync(join(tmpdir(), 'rt-e2e-sso-'));
    dataDirs.push(dataDir);
    const config = loadConfig({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GITHUB_API_URL: shared.githubUrl,
      SMTP_URL: shared.smtpUrl,
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'e2e-sso-secret-key-0123456789abcdef0123456789abcd',
      TRUST_PROXY: '127.0.0.1',
      SYNC_SCHEDULE: 'off',
      BACKUP_SCHEDULE: 'off',
      OIDC_AUTO_REDIRECT: 'on',
      OIDC_BUTTON_TEXT: 'Sign in with Example ID',
      OIDC_TIMEOUT_MS: '3000',
      ...env,
    });
    const app = await buildApp(config, { webDistDir: shared.webDistDir });
    await app.listen({ port, host: '127.0.0.1' });
    apps.push(app);
    // The instance's first account becomes its administrator: an owner with a password, so the
    // journey's accounts are ordinary ones whose admin flag only the provider's groups set.
    const owner = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: {
        email: `owner-${port}@example.com`,
        username: `owner_${port}`,
        first_name: 'Olive',
        last_name: 'Owner',
        password: 'E2eOwnerPassw0rd',
      },
    });
    if (owner.statusCode !== 201) throw new Error(`could not register the owner: ${owner.body}`);
    return app;
  }

  await startInstance(basePort + 3, {
    ...provider.env,
    PUBLIC_URL: ssoUrl,
    OIDC_ADMIN_GROUPS: SSO_ADMIN_GROUP,
  });
  await startInstance(basePort + 4, {
    OIDC_ISSUER_URL: downIssuer,
    OIDC_CLIENT_ID: 'repo-tracker',
    OIDC_CLIENT_SECRET: 'no-provider-answers-here-0123456789',
  });

  function json(response: ServerResponse, status: number, body: unknown) {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }

  return {
    handle(request, response, url) {
      if (url.pathname === '/sso' && request.method === 'GET') {
        json(response, 200, { url: ssoUrl, downUrl, issuer: provider.issuer, adminGroup: SSO_ADMIN_GROUP });
        return true;
      }
      if (url.pathname === '/sso/accounts' && request.method === 'POST') {
        let raw = '';
        request.on('data', (chunk) => {
          raw += chunk;
        });
        request.on('end', () => {
          try {
            const { login, ...account } = JSON.parse(raw) as ProviderAccount & { login?: unknown };
            if (typeof login !== 'string' || !/^[a-z0-9_-]{1,40}$/.test(login))
              throw new Error('login: 1–40 of a-z, 0-9, _ and -');
            provider.accounts.set(login, account);
            json(response, 201, { login });
          } catch (error) {
            json(response, 400, { error: String(error) });
          }
        });
        return true;
      }
      return false;
    },
    async close() {
      for (const app of apps) await app.close();
      await provider.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
