import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { jsonResponse, renderApp, signIn } from '../../test/web/render.tsx';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('app start', () => {
  it("shows 'Initializing...' until the session is restored", async () => {
    renderApp({ route: '/' });
    expect(screen.getByText('Initializing...')).toBeVisible();
    await screen.findByRole('link', { name: 'Get Started' });
    expect(screen.queryByText('Initializing...')).toBeNull();
  });
});

describe('anonymous visitors', () => {
  it('see the landing page at /', async () => {
    renderApp({ route: '/' });
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(window.location.hash).toBe('#/');
  });

  it('see the landing page at an unknown path', async () => {
    renderApp({ route: '/no/such/page' });
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
  });

  it.each([
    ['/home', '#/home'],
    ['/profile', '#/profile'],
    ['/settings', '#/settings'],
    ['/repo/b3duZXIvbmFtZQ', '#/repo/b3duZXIvbmFtZQ'],
    ['/admin?tab=users', '#/admin?tab=users'],
  ])('are sent from %s to /login, and the hash is kept for after sign-in', async (route, stored) => {
    renderApp({ route });
    expect(await heading('Sign In')).toBeVisible();
    expect(window.location.hash).toBe('#/login');
    expect(sessionStorage.getItem(STORAGE_KEYS.redirectAfterLogin)).toBe(stored);
  });

  it.each([
    ['/tags', 'Please sign in to view your tags.'],
    ['/stats', 'Please sign in to view your statistics.'],
    ['/add', 'Please sign in to add repositories'],
  ])('see the Authentication Required panel at %s', async (route, message) => {
    renderApp({ route });
    const panelHeading = await heading('Authentication Required');
    const panel = panelHeading.closest('div.mantine-Paper-root');
    if (!(panel instanceof HTMLElement)) throw new Error('panel not found');
    expect(within(panel).getByText(message)).toBeVisible();
    expect(within(panel).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('#/login');
    expect(within(panel).getByRole('link', { name: 'Create Account' }).getAttribute('href')).toBe(
      '#/register',
    );
    // A prompt, not a redirect.
    expect(window.location.hash).toBe(`#${route}`);
    expect(sessionStorage.getItem(STORAGE_KEYS.redirectAfterLogin)).toBeNull();
  });

  it.each([
    ['/login', 'Sign In', '#/login'],
    ['/register', 'Create Account', '#/register'],
    ['/forgot-password', 'Forgot Password', '#/forgot-password'],
    // E-mail links lose their token from the address bar once it is read (docs/security.md#b3).
    ['/reset-password?token=abc', 'Reset Password', '#/reset-password'],
    ['/verify-email?token=abcdefghijk', 'Email Verified', '#/verify-email'],
    ['/resend-verification', 'Resend Verification Email', '#/resend-verification'],
  ])('may open %s', async (route, title, hash) => {
    renderApp({
      route,
      handlers: {
        'POST /auth/verify-reset-token': () =>
          jsonResponse({ success: true, message: 'Reset token is valid' }),
        'POST /auth/verify-email': () =>
          jsonResponse({ success: true, message: 'Email verified successfully!' }),
      },
    });
    expect(await heading(title)).toBeVisible();
    expect(window.location.hash).toBe(hash);
  });
});

describe('signed-in members', () => {
  it('go from / to /home', async () => {
    signIn();
    renderApp({ route: '/' });
    expect(await heading('Repositories')).toBeVisible();
    expect(window.location.hash).toBe('#/home');
  });

  it.each(['/login', '/register', '/forgot-password', '/reset-password?token=abc'])(
    'are sent from %s to /home',
    async (route) => {
      signIn();
      renderApp({ route });
      expect(await heading('Repositories')).toBeVisible();
      expect(window.location.hash).toBe('#/home');
    },
  );

  it('see their repository list at an unknown path', async () => {
    signIn();
    renderApp({ route: '/no/such/page' });
    expect(await heading('Repositories')).toBeVisible();
    expect(window.location.hash).toBe('#/no/such/page');
  });

  it.each([
    ['/repo/b3duZXIvbmFtZQ', 'Repository Details', 'owner/name'],
    ['/profile', 'Profile', 'Profile'],
    ['/settings', 'Settings', 'Settings'],
    ['/tags', 'Tags', 'Tags'],
    ['/stats', 'Statistics', 'Statistics'],
    ['/add', 'Add Repositories', 'Add Repositories'],
    ['/admin?tab=overview', 'Admin Dashboard', 'Administration'],
  ])('open %s, named in the tab title', async (route, title, tabTitle) => {
    signIn();
    renderApp({ route });
    expect(await heading(title)).toBeVisible();
    expect(window.location.hash).toBe(`#${route}`);
    // The test double's /version names the app "Team Catalogue".
    await waitFor(() => expect(document.title).toBe(`${tabTitle} · Team Catalogue`));
  });

  it('count as anonymous when the stored session is incomplete, and it is cleared', async () => {
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify({ id: 1, username: 'alice' }));
    localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    renderApp({ route: '/profile' });
    expect(await heading('Sign In')).toBeVisible();
    await waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull());
  });
});
