import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { buildUser, jsonResponse, renderApp, signIn } from '../../../test/web/render.tsx';
import { leaveApp } from './leave-app.ts';

async function signOut(user: ReturnType<typeof renderApp>['user']) {
  const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
  await user.click(within(nav).getByRole('button', { name: /Alice Smith/ }));
  const menu = await screen.findByRole('menu');
  await user.click(within(menu).getByRole('menuitem', { name: 'Sign Out' }));
}

describe('Sign out after single sign-on', () => {
  it("clears the session, then sends the browser to the provider's end_session_url", async () => {
    const leave = vi.spyOn(leaveApp, 'assign').mockImplementation(() => {});
    signIn(buildUser());
    let sessionGoneAtLogout = false;
    const { user } = renderApp({
      route: '/home',
      handlers: {
        'POST /auth/logout': () => {
          sessionGoneAtLogout = localStorage.getItem(STORAGE_KEYS.accessToken) === null;
          return jsonResponse({
            message: 'Logged out',
            end_session_url: 'https://sso.example.com/logout?id_token_hint=x',
          });
        },
      },
    });
    await signOut(user);
    await waitFor(() => expect(leave).toHaveBeenCalledWith('https://sso.example.com/logout?id_token_hint=x'));
    expect(sessionGoneAtLogout).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
  });

  it('stays in the app without end_session_url', async () => {
    const leave = vi.spyOn(leaveApp, 'assign').mockImplementation(() => {});
    signIn(buildUser());
    const { user, fetchMock } = renderApp({ route: '/home' });
    await signOut(user);
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/logout'))).toBe(true),
    );
    expect(leave).not.toHaveBeenCalled();
  });
});
