import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { errorResponse, jsonResponse, meFromStorage, renderApp, signIn } from '../../../test/web/render.tsx';
import { INIT_FAILED_MESSAGE, SESSION_EXPIRED_MESSAGE } from './auth-context.tsx';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

function requestsTo(fetchMock: { mock: { calls: unknown[][] } }, method: string, path: string): Request[] {
  return fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => request.method === method && new URL(request.url).pathname === path);
}

describe('start (stored tokens are verified with a call)', () => {
  it('restores a stored session once GET /auth/me confirms it', async () => {
    signIn();
    const { fetchMock } = renderApp({ route: '/profile' });
    expect(await heading('Profile')).toBeVisible();
    const [me] = requestsTo(fetchMock, 'GET', '/auth/me');
    expect(me?.headers.get('Authorization')).toBe('Bearer test-access-token');
  });

  it('refreshes an expired access token on the way and stores both rotated tokens', async () => {
    signIn();
    const { fetchMock } = renderApp({
      route: '/profile',
      handlers: {
        'POST /auth/refresh': () =>
          jsonResponse({ access_token: 'fresh-access', refresh_token: 'fresh-refresh' }),
        'GET /auth/me': (request) =>
          request.headers.get('Authorization') === 'Bearer fresh-access'
            ? meFromStorage(request)
            : errorResponse(401, 'Token expired'),
      },
    });
    expect(await heading('Profile')).toBeVisible();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('fresh-access');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('fresh-refresh');
    expect(requestsTo(fetchMock, 'POST', '/auth/refresh')).toHaveLength(1);
  });

  it('clears a session the server refuses, without an error message', async () => {
    signIn();
    renderApp({
      route: '/profile',
      handlers: {
        'GET /auth/me': () => errorResponse(401, 'Token expired'),
        'POST /auth/refresh': () => errorResponse(401, 'Invalid refresh token'),
      },
    });
    expect(await heading('Sign In')).toBeVisible();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(screen.queryByText(INIT_FAILED_MESSAGE)).toBeNull();
  });

  it("keeps the stored session when the server can't be reached, and says 'Failed to initialize authentication'", async () => {
    signIn();
    renderApp({
      route: '/profile',
      handlers: {
        'GET /auth/me': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByText(INIT_FAILED_MESSAGE)).toBeVisible();
    expect(await heading('Profile')).toBeVisible();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('test-access-token');
  });

  it('asks nothing when no token is stored', async () => {
    const { fetchMock } = renderApp({ route: '/login' });
    expect(await heading('Sign In')).toBeVisible();
    expect(requestsTo(fetchMock, 'GET', '/auth/me')).toHaveLength(0);
  });
});

describe('a refused refresh while signed in', () => {
  it('signs the member out and goes to #/login, remembering the screen', async () => {
    signIn();
    renderApp({
      route: '/settings?tab=github',
      handlers: {
        'GET /auth/me/github-token': () => errorResponse(401, 'Token expired'),
        'POST /auth/refresh': () => errorResponse(401, 'Invalid refresh token'),
      },
    });
    expect(await heading('Sign In')).toBeVisible();
    expect(window.location.hash).toBe('#/login');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
    expect(sessionStorage.getItem(STORAGE_KEYS.redirectAfterLogin)).toBe('#/settings?tab=github');
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    // Said once, so the move to the sign-in screen isn't a mystery.
    expect(await screen.findByText(SESSION_EXPIRED_MESSAGE)).toBeVisible();
  });
});

describe('sign-out', () => {
  it('revokes the session on the server with its refresh token, clears storage and goes to #/', async () => {
    signIn();
    const { fetchMock, user } = renderApp({ route: '/profile' });
    expect(await heading('Profile')).toBeVisible();
    localStorage.setItem(STORAGE_KEYS.rememberMe, 'true');

    await user.click(screen.getByRole('button', { name: /Alice Smith/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign Out' }));

    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(window.location.hash).toBe('#/');
    for (const key of ['accessToken', 'refreshToken', 'user', 'rememberMe'] as const) {
      expect(localStorage.getItem(STORAGE_KEYS[key])).toBeNull();
    }
    // Not remembered as "where to go after the next sign-in".
    expect(sessionStorage.getItem(STORAGE_KEYS.redirectAfterLogin)).toBeNull();
    await waitFor(() => expect(requestsTo(fetchMock, 'POST', '/auth/logout')).toHaveLength(1));
    const [logout] = requestsTo(fetchMock, 'POST', '/auth/logout');
    expect(await logout?.json()).toEqual({ refresh_token: 'test-refresh-token' });
  });
});

describe('other tabs (storage events)', () => {
  it('a sign-out in another tab signs this tab out too', async () => {
    signIn();
    renderApp({ route: '/profile' });
    expect(await heading('Profile')).toBeVisible();

    act(() => {
      localStorage.removeItem(STORAGE_KEYS.accessToken);
      localStorage.removeItem(STORAGE_KEYS.refreshToken);
      localStorage.removeItem(STORAGE_KEYS.user);
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.user, newValue: null }));
    });

    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(window.location.hash).toBe('#/');
  });

  it('a sign-in in another tab signs this tab in, and it leaves the login screen', async () => {
    renderApp({ route: '/login' });
    expect(await heading('Sign In')).toBeVisible();

    act(() => {
      signIn();
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.user }));
    });

    expect(await heading('Repositories')).toBeVisible();
    expect(window.location.hash).toBe('#/home');
  });

  it('a token rotated by another tab is simply used: no sign-out, no request', async () => {
    signIn();
    const { fetchMock } = renderApp({ route: '/profile' });
    expect(await heading('Profile')).toBeVisible();
    const before = fetchMock.mock.calls.length;

    act(() => {
      localStorage.setItem(STORAGE_KEYS.accessToken, 'rotated-elsewhere');
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.accessToken }));
    });

    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    expect(fetchMock.mock.calls.length).toBe(before);
  });
});
