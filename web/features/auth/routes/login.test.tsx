import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { buildUser, errorResponse, jsonResponse, renderApp } from '../../../../test/web/render.tsx';

const member = buildUser({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });

const loginAnswer = () =>
  jsonResponse({
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    user: member,
    message: 'Login successful',
  });

async function openLogin(handlers = {}) {
  const rendered = renderApp({ route: '/login', handlers });
  await screen.findByRole('heading', { level: 1, name: 'Sign In' });
  const field = (name: string) => screen.getByLabelText(name, { exact: true, selector: 'input' });
  const submit = screen.getByRole('button', { name: 'Sign In' });
  return { ...rendered, field, submit };
}

async function fillAndSubmit(
  user: Awaited<ReturnType<typeof openLogin>>['user'],
  field: (name: string) => HTMLElement,
  login = 'grace',
  password = 'Passw0rd!',
) {
  await user.type(field('Email or Username'), login);
  await user.type(field('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('Login', () => {
  it('has the fields, the remember-me box and the links', async () => {
    const { field } = await openLogin();
    expect(field('Email or Username')).toBeEnabled();
    expect(field('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('checkbox', { name: 'Remember me for 24 hours' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '#/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Create one' }).getAttribute('href')).toBe('#/register');
  });

  it('shows and hides the password', async () => {
    const { user, field } = await openLogin();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    await user.click(toggle);
    expect(field('Password').getAttribute('type')).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await user.click(toggle);
    expect(field('Password').getAttribute('type')).toBe('password');
  });

  it('keeps Sign In disabled while either field is empty', async () => {
    const { user, field, submit } = await openLogin();
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(field('Email or Username'), 'grace');
    expect(submit.hasAttribute('disabled')).toBe(true);
    await user.type(field('Password'), 'x');
    expect(submit.hasAttribute('disabled')).toBe(false);
    await user.clear(field('Email or Username'));
    expect(submit.hasAttribute('disabled')).toBe(true);
  });

  it("checks the password length before asking ('Password must be at least 8 characters')", async () => {
    const { user, field, fetchMock } = await openLogin();
    await fillAndSubmit(user, field, 'grace', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeVisible();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/login'))).toBe(false);
  });

  it('submits with Enter, stores the session with the remember-me flag and goes to /home', async () => {
    let body: unknown;
    const { user, field } = await openLogin({
      'POST /auth/login': async (request: Request) => {
        body = await request.json();
        return loginAnswer();
      },
    });
    await user.type(field('Email or Username'), 'grace');
    await user.click(screen.getByRole('checkbox', { name: 'Remember me for 24 hours' }));
    await user.type(field('Password'), 'Passw0rd!{Enter}');

    expect(await screen.findByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
    expect(window.location.hash).toBe('#/home');
    expect(body).toEqual({ email_or_username: 'grace', password: 'Passw0rd!', remember_me: true });
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-1');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-1');
    expect(localStorage.getItem(STORAGE_KEYS.rememberMe)).toBe('true');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? 'null')).toEqual(member);
    // The sidebar is a chunk of its own, which may arrive after the screen's.
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByText('Grace Hopper')).toBeVisible();
  });

  it('goes back to the screen that sent the visitor to sign in, once', async () => {
    const { user, field } = await openLogin({
      'POST /auth/login': loginAnswer,
    });
    sessionStorage.setItem(STORAGE_KEYS.redirectAfterLogin, '#/settings?tab=security');
    await fillAndSubmit(user, field);
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    expect(window.location.hash).toBe('#/settings?tab=security');
    expect(sessionStorage.getItem(STORAGE_KEYS.redirectAfterLogin)).toBeNull();
  });

  it('is busy while signing in: the button is disabled', async () => {
    let answer: (response: Response) => void = () => {};
    const { user, field, submit } = await openLogin({
      'POST /auth/login': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await fillAndSubmit(user, field);
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(submit.getAttribute('data-loading')).toBe('true');
    answer(errorResponse(401, 'Invalid email/username or password'));
    await screen.findByRole('alert');
    expect(submit.hasAttribute('disabled')).toBe(false);
  });

  it.each([
    [
      'the server message',
      () => errorResponse(401, 'Invalid email/username or password'),
      'Invalid email/username or password',
    ],
    ['Login failed without one', () => jsonResponse({ error: 'nope' }, { status: 500 }), 'Login failed'],
    [
      'the network text',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'Network error. Please try again.',
    ],
    [
      'the rate limit',
      () => errorResponse(429, 'Too many sign-in attempts. Try again in 15 minutes.', { retry_after: 900 }),
      'Too many sign-in attempts. Try again in 15 minutes.',
    ],
  ])('shows %s in a banner', async (_name, handler, text) => {
    const { user, field } = await openLogin({ 'POST /auth/login': handler });
    await fillAndSubmit(user, field);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(text);
    expect(window.location.hash).toBe('#/login');
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('offers a new verification email to an unverified account', async () => {
    const message =
      'Please verify your email address before signing in. Check your inbox or request a new verification email.';
    const { user, field } = await openLogin({ 'POST /auth/login': () => errorResponse(403, message) });
    await fillAndSubmit(user, field);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(within(alert).getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe(
      '#/resend-verification',
    );
  });
});
