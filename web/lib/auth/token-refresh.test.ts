import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { STORAGE_KEYS } from '#shared/constants.ts';
import {
  type ApiClient,
  apiRequest,
  createApiClient,
  NETWORK_ERROR_MESSAGE,
  setUnauthorizedHandler,
} from '../api-client.ts';
import { postRefresh } from './api/refresh-token.ts';
import {
  createTokenRefresher,
  REFRESH_LOCK_NAME,
  type RefreshCoordination,
  ROTATED_LOCK_PREFIX,
  type TokenStore,
  webLocksCoordination,
} from './token-refresh.ts';

const okSchema = z.object({ ok: z.literal(true), call: z.number() });

/**
 * A small stand-in for the auth server: one valid access token at a time, refresh tokens that
 * rotate on every use, and reuse detection (a rotated refresh token answers 401 and is noted).
 */
function startFakeServer({ refreshDelayMs = 10 } = {}) {
  const server = {
    accessToken: 'none-valid-yet',
    refreshToken: 'refresh-0',
    generation: 0,
    refreshCalls: 0,
    reuseDetected: false,
    refreshAnswer: null as Response | null,
    calls: 0,
  };
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (path === '/auth/refresh') {
      server.refreshCalls += 1;
      const { refresh_token } = (await request.json()) as { refresh_token: string };
      await new Promise((resolve) => setTimeout(resolve, refreshDelayMs));
      if (server.refreshAnswer) return server.refreshAnswer.clone();
      if (refresh_token !== server.refreshToken) {
        server.reuseDetected = true;
        return json({ message: 'Invalid refresh token', code: 'unauthorized' }, 401);
      }
      server.generation += 1;
      server.accessToken = `access-${server.generation}`;
      server.refreshToken = `refresh-${server.generation}`;
      return json({ access_token: server.accessToken, refresh_token: server.refreshToken });
    }
    server.calls += 1;
    if (request.headers.get('Authorization') !== `Bearer ${server.accessToken}`) {
      return json({ message: 'Token expired', code: 'unauthorized' }, 401);
    }
    return json({ ok: true, call: server.calls });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { server, fetchMock };
}

/**
 * What the browser's lock manager gives every tab: one holder of the refresh lock at a time, in
 * request order, and rotation markers every tab sees at once.
 */
function createSharedCoordination(): RefreshCoordination & { requests: number } {
  let tail: Promise<unknown> = Promise.resolve();
  const rotated = new Set<string>();
  const coordination = {
    requests: 0,
    exclusive: <T>(task: () => Promise<T>) => {
      coordination.requests += 1;
      const run = tail.then(task);
      tail = run.catch(() => undefined);
      return run;
    },
    markRotated: async (token: string) => {
      rotated.add(token);
    },
    wasRotated: async (token: string) => rotated.has(token),
  };
  return coordination;
}

/** One browser tab: its own API client and refresher, sharing storage and the lock with the others. */
function openTab(coordination: RefreshCoordination, onSessionExpired = vi.fn()) {
  const client = createApiClient();
  const refresher = createTokenRefresher({
    requestRefresh: (token) => postRefresh(token, client),
    onSessionExpired,
    coordination,
  });
  client.setUnauthorizedHandler(refresher.handleUnauthorized);
  return { client, refresher, onSessionExpired };
}

/** The default API client answers 401s with a refresher over POST /auth/refresh. */
function installRefresher(onSessionExpired = vi.fn(), coordination?: RefreshCoordination) {
  setUnauthorizedHandler(
    createTokenRefresher({ requestRefresh: (token) => postRefresh(token), onSessionExpired, coordination })
      .handleUnauthorized,
  );
}

const get = (client: Pick<ApiClient, 'apiRequest'>, index: number) =>
  client.apiRequest(`/repositories/${index}`, okSchema);

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.accessToken, 'expired-access');
  localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh-0');
});

afterEach(() => {
  setUnauthorizedHandler(null);
});

describe('one tab', () => {
  it('answers 10 parallel 401s with exactly one refresh, then retries each request once', async () => {
    const { server, fetchMock } = startFakeServer();
    const onSessionExpired = vi.fn();
    installRefresher(onSessionExpired, createSharedCoordination());

    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => get({ apiRequest }, index)));

    expect(results).toHaveLength(10);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.refreshCalls).toBe(1);
    // 10 refused, 1 refresh, 10 retries: nothing sent a third time.
    expect(fetchMock).toHaveBeenCalledTimes(21);
    // Both rotated tokens are kept.
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-1');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('sends the stored refresh token and keeps no stale one', async () => {
    const { fetchMock } = startFakeServer();
    installRefresher();
    await get({ apiRequest }, 1);
    const refreshCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/refresh'));
    expect(JSON.parse(String(refreshCall?.[1]?.body))).toEqual({ refresh_token: 'refresh-0' });
  });

  it('ends the session once when the refresh is refused, and every queued request fails with its 401', async () => {
    const { server } = startFakeServer();
    server.refreshAnswer = new Response(
      JSON.stringify({ message: 'Session expired', code: 'unauthorized' }),
      {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      },
    );
    const onSessionExpired = vi.fn();
    installRefresher(onSessionExpired, createSharedCoordination());

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) => get({ apiRequest }, index)),
    );

    expect(server.refreshCalls).toBe(1);
    expect(onSessionExpired).toHaveBeenCalledOnce();
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: 'rejected',
        reason: { status: 401, message: 'Token expired' },
      });
    }
  });

  it('ends the session without asking the server when no refresh token is stored', async () => {
    const { server } = startFakeServer();
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    const onSessionExpired = vi.fn();
    installRefresher(onSessionExpired);
    await expect(get({ apiRequest }, 1)).rejects.toMatchObject({ status: 401 });
    expect(server.refreshCalls).toBe(0);
    expect(onSessionExpired).toHaveBeenCalledOnce();
  });

  it('keeps the session when the refresh fails on the network, and says so', async () => {
    startFakeServer();
    const onSessionExpired = vi.fn();
    const requestRefresh = vi.fn(async () => {
      const { ApiError } = await import('../api-client.ts');
      throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
    });
    setUnauthorizedHandler(createTokenRefresher({ requestRefresh, onSessionExpired }).handleUnauthorized);
    await expect(get({ apiRequest }, 1)).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-0');
  });

  it("takes the browser's Web Lock named 'auth-refresh' and marks the rotated token for other tabs", async () => {
    startFakeServer();
    const held: string[] = [];
    const request = vi.fn((name: string, task: () => Promise<unknown>) => {
      held.push(name);
      return task();
    });
    const query = vi.fn(async () => ({ held: held.map((name) => ({ name })), pending: [] }));
    vi.stubGlobal('navigator', { ...navigator, locks: { request, query } });
    installRefresher();
    await get({ apiRequest }, 1);
    expect(request.mock.calls[0]?.[0]).toBe(REFRESH_LOCK_NAME);
    // The marker names the rotated token by a fingerprint, never the token itself.
    const marker = held.find((name) => name.startsWith(ROTATED_LOCK_PREFIX)) ?? '';
    expect(marker).toMatch(/^auth-rotated:[0-9a-f]{32}$/);
    expect(marker).not.toContain('refresh-0');
    const coordination = webLocksCoordination(navigator.locks);
    expect(await coordination.wasRotated('refresh-0')).toBe(true);
    expect(await coordination.wasRotated('refresh-1')).toBe(false);
  });
});

describe('two tabs (docs/security.md#c3)', () => {
  it('refresh once between them: the second tab finds the rotated token inside the lock and uses it', async () => {
    const { server } = startFakeServer();
    const coordination = createSharedCoordination();
    const first = openTab(coordination);
    const second = openTab(coordination);

    const results = await Promise.all([
      ...Array.from({ length: 5 }, (_, index) => get(first.client, index)),
      ...Array.from({ length: 5 }, (_, index) => get(second.client, index)),
    ]);

    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.refreshCalls).toBe(1);
    // Sending the rotated refresh token again would have revoked the whole family.
    expect(server.reuseDetected).toBe(false);
    // Both tabs queued for the lock; only the first one refreshed.
    expect(coordination.requests).toBe(2);
    expect(first.onSessionExpired).not.toHaveBeenCalled();
    expect(second.onSessionExpired).not.toHaveBeenCalled();
  });

  it('a tab whose failed token was already replaced by another tab does not refresh again', async () => {
    const { server } = startFakeServer();
    const coordination = createSharedCoordination();
    const other = openTab(coordination);
    const late = openTab(coordination);

    // The other tab renews first (its request failed with the same expired token).
    await other.refresher.renew('expired-access');
    expect(server.refreshCalls).toBe(1);

    // This tab's request had gone out with the expired token too; its renewal finds access-1.
    await late.refresher.renew('expired-access');
    expect(server.refreshCalls).toBe(1);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-1');
    await expect(get(late.client, 1)).resolves.toMatchObject({ ok: true });
  });

  it("waits for the other tab's tokens when its own storage still shows the rotated ones", async () => {
    // Chromium hands a localStorage write to other tabs asynchronously: model this tab's lagging view.
    const { server } = startFakeServer();
    const coordination = createSharedCoordination();
    const other = openTab(coordination);
    await other.refresher.renew('expired-access');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');

    let caughtUp = false;
    const laggingView: TokenStore = {
      readAccessToken: () => (caughtUp ? localStorage.getItem(STORAGE_KEYS.accessToken) : 'expired-access'),
      readRefreshToken: () => (caughtUp ? localStorage.getItem(STORAGE_KEYS.refreshToken) : 'refresh-0'),
      writeTokens: () => {
        throw new Error('this tab must not write: it did not refresh');
      },
    };
    const onSessionExpired = vi.fn();
    const late = createTokenRefresher({
      requestRefresh: (token) => postRefresh(token),
      onSessionExpired,
      coordination,
      store: laggingView,
    });
    setTimeout(() => {
      caughtUp = true;
    }, 60);

    await late.renew('expired-access');
    expect(server.refreshCalls).toBe(1);
    expect(server.reuseDetected).toBe(false);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('a refused refresh ends the session once', async () => {
    const { server } = startFakeServer();
    server.refreshAnswer = new Response(
      JSON.stringify({ message: 'Session expired', code: 'unauthorized' }),
      {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      },
    );
    const first = openTab(createSharedCoordination());
    const outcomes = await Promise.allSettled([get(first.client, 1), get(first.client, 2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(first.onSessionExpired).toHaveBeenCalledOnce();
  });
});
