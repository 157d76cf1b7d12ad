import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { OIDC_ERROR_MESSAGES } from '#shared/schemas/oidc.ts';
import { leaveApp } from '#web/lib/auth/leave-app.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
} from '../../../../test/web/render.tsx';

const member = buildUser({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });

function providers(overrides: { password?: boolean; registration?: boolean; auto_redirect?: boolean } = {}) {
  const { password = true, registration = password, auto_redirect = false } = overrides;
  return () =>
    jsonResponse({
      password,
      registration,
      oidc: { enabled: true, button_text: 'Sign in with Authelia', auto_redirect },
    });
}

const signInAnswer = (return_to: string | null = null) =>
  jsonResponse({
    access_token: 'access-sso',
    refresh_token: 'refresh-sso',
    user: member,
    message: 'Login successful',
    return_to,
  });

function stubLeave() {
  return vi.spyOn(leaveApp, 'assign').mockImplementation(() => {});
}

function open(route: string, handlers: Record<string, FetchHandler>) {
  return renderApp({ route, handlers });
}

describe('Sign in with single sign-on', () => {
  it('shows the provider button, which starts the sign-in with return_to and remember_me', async () => {
    const { user } = open('/login', { 'GET /auth/providers': providers() });
    sessionStorage.setItem(STORAGE_KEYS.redirectAfterLogin, '#/settings?tab=security');
    const button = await screen.findByRole('link', { name: 'Sign in with Authelia' });
    const href = new URL(button.getAttribute('href') ?? '');
    expect(href.pathname).toBe('/auth/oidc/start');
    expect(href.searchParams.get('remember_me')).toBe('false');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me for 24 hours' }));
    const after = new URL(
      screen.getByRole('link', { name: 'Sign in with Authelia' }).getAttribute('href') ?? '',
    );
    expect(after.searchParams.get('remember_me')).toBe('true');
    expect(after.searchParams.get('return_to')).toBe('/settings?tab=security');
    // The password form is still there.
    expect(screen.getByLabelText('Email or Username', { selector: 'input' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create one' })).toBeVisible();
  });

  it('shows no button without single sign-on', async () => {
    open('/login', {
      'GET /auth/providers': () =>
        jsonResponse({
          password: true,
          registration: true,
          oidc: { enabled: false, button_text: 'Sign in with SSO', auto_redirect: false },
        }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Sign In' });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Create one' })).toBeVisible());
    expect(screen.queryByRole('link', { name: 'Sign in with SSO' })).toBeNull();
  });

  it('hides the password form, Create account and Forgot password when password sign-in is off', async () => {
    open('/login', { 'GET /auth/providers': providers({ password: false }) });
    expect(await screen.findByRole('link', { name: 'Sign in with Authelia' })).toBeVisible();
    expect(screen.queryByLabelText('Email or Username', { selector: 'input' })).toBeNull();
    expect(screen.queryByLabelText('Password', { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create one' })).toBeNull();
  });

  it('goes straight to the provider with auto-redirect', async () => {
    const leave = stubLeave();
    open('/login', { 'GET /auth/providers': providers({ auto_redirect: true }) });
    await waitFor(() => expect(leave).toHaveBeenCalledTimes(1));
    expect(new URL(leave.mock.calls[0]?.[0] ?? '').pathname).toBe('/auth/oidc/start');
    expect(screen.getByText('Taking you to Sign in with Authelia…')).toBeVisible();
  });

  it('stays with ?local=1 despite auto-redirect', async () => {
    const leave = stubLeave();
    open('/login?local=1', { 'GET /auth/providers': providers({ auto_redirect: true }) });
    expect(await screen.findByRole('link', { name: 'Sign in with Authelia' })).toBeVisible();
    expect(screen.getByLabelText('Email or Username', { selector: 'input' })).toBeVisible();
    expect(leave).not.toHaveBeenCalled();
  });

  it('exchanges ?oidc_code= and signs in as the password sign-in does, going to return_to', async () => {
    let body: unknown;
    open('/login?oidc_code=one-time', {
      'GET /auth/providers': providers(),
      'POST /auth/oidc/exchange': async (request) => {
        body = await request.json();
        return signInAnswer('/settings?tab=security');
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    expect(body).toEqual({ code: 'one-time' });
    expect(window.location.hash).toBe('#/settings?tab=security');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-sso');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-sso');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null')).toEqual(member);
  });

  it('says why an exchange failed', async () => {
    open('/login?oidc_code=spent', {
      'GET /auth/providers': providers(),
      'POST /auth/oidc/exchange': () =>
        errorResponse(400, 'This sign-in code is invalid, expired or already used. Sign in again.'),
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This sign-in code is invalid, expired or already used. Sign in again.',
    );
    expect(screen.getByRole('link', { name: 'Back to Login' })).toBeVisible();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('shows the message of ?oidc_error= on the sign-in screen, without redirecting again', async () => {
    const leave = stubLeave();
    open('/login?oidc_error=email_unverified', { 'GET /auth/providers': providers({ auto_redirect: true }) });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(OIDC_ERROR_MESSAGES.email_unverified);
    expect(screen.getByRole('link', { name: 'Sign in with Authelia' })).toBeVisible();
    expect(leave).not.toHaveBeenCalled();
  });
});

describe('Link your account', () => {
  const details = () => jsonResponse({ email: 'grace@example.com', expires_at: '2026-11-29T06:00:00.000Z' });

  it('shows the e-mail, then links with the password and signs in', async () => {
    let body: unknown;
    const { user } = open('/login?oidc_link=link-code', {
      'GET /auth/providers': providers(),
      'POST /auth/oidc/link/details': details,
      'POST /auth/oidc/link': async (request) => {
        body = await request.json();
        return signInAnswer();
      },
    });
    expect(await screen.findByText('grace@example.com')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Link Your Account' })).toBeVisible();
    const submit = screen.getByRole('button', { name: 'Link and Sign In' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Passw0rd!{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
    expect(body).toEqual({ code: 'link-code', password: 'Passw0rd!' });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-sso');
  });

  it('says a wrong password clearly and lets the visitor try again', async () => {
    let attempts = 0;
    const { user } = open('/login?oidc_link=link-code', {
      'GET /auth/providers': providers(),
      'POST /auth/oidc/link/details': details,
      'POST /auth/oidc/link': () => {
        attempts += 1;
        return attempts === 1
          ? errorResponse(401, 'Incorrect password for the account with this e-mail address.')
          : signInAnswer();
      },
    });
    const field = await screen.findByLabelText('Password', { selector: 'input' });
    await user.type(field, 'wrong-one{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Incorrect password for the account with this e-mail address.',
    );
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.location.hash).toBe('#/login?oidc_link=link-code');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Passw0rd!{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
    expect(attempts).toBe(2);
  });

  it('says when the link code has expired', async () => {
    open('/login?oidc_link=old', {
      'GET /auth/providers': providers(),
      'POST /auth/oidc/link/details': () =>
        errorResponse(400, 'This sign-in code is invalid, expired or already used. Sign in again.'),
    });
    expect((await screen.findByRole('alert')).textContent).toContain('expired or already used');
    expect(screen.getByRole('link', { name: 'Back to Login' })).toBeVisible();
  });
});

describe('Password screens when password accounts are off', () => {
  it.each([
    ['/register', 'Create Account'],
    ['/forgot-password', 'Forgot Password'],
    ['/reset-password?token=abc', 'Reset Password'],
  ])('%s says so and points to single sign-on', async (route, title) => {
    open(route, { 'GET /auth/providers': providers({ password: false }) });
    expect(await screen.findByText(/Password accounts are turned off on this instance/)).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in with Authelia' }).getAttribute('href')).toBe('#/login');
  });
});
