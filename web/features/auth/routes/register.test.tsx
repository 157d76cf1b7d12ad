import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, type FetchHandler, jsonResponse, renderApp } from '../../../../test/web/render.tsx';

const REGISTERED = 'Registration successful! Please check your email to verify your account.';

async function openRegister(handlers: Record<string, FetchHandler> = {}) {
  const rendered = renderApp({ route: '/register', handlers });
  await screen.findByRole('heading', { level: 1, name: 'Create Account' });
  return rendered;
}

const input = (label: string) =>
  screen.getAllByLabelText(new RegExp(`^${label}`), { selector: 'input' })[0] as HTMLInputElement;

async function fillValid(user: Awaited<ReturnType<typeof openRegister>>['user']) {
  await user.type(input('Email'), 'grace@example.com');
  await user.type(input('Username'), 'grace_h');
  await user.type(input('First Name'), 'Grace');
  await user.type(input('Last Name'), 'Hopper');
  await user.type(input('Password'), 'Passw0rd!');
  await user.type(input('Confirm Password'), 'Passw0rd!');
}

const submit = () => screen.getByRole('button', { name: 'Create Account' });

describe('Register', () => {
  it('shows every field message for an empty form, and sends nothing', async () => {
    const { user, fetchMock } = await openRegister();
    await user.click(submit());
    for (const message of [
      'Email is required',
      'Username must be 3-20 characters, letters, numbers, _ or - only',
      'First name must be at least 2 characters',
      'Last name must be at least 2 characters',
      'Password must be at least 8 characters with uppercase, lowercase, and number',
      'Please confirm your password',
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/register'))).toBe(false);
  });

  it('checks the e-mail format, the password rules and the confirmation', async () => {
    const { user } = await openRegister();
    await user.type(input('Email'), 'grace at example');
    await user.type(input('Password'), 'password1');
    await user.type(input('Confirm Password'), 'password2');
    await user.click(submit());
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(
      screen.getByText('Password must be at least 8 characters with uppercase, lowercase, and number'),
    ).toBeVisible();
    expect(screen.getByText('Passwords do not match')).toBeVisible();
  });

  it('clears a field’s error as soon as it is edited', async () => {
    const { user } = await openRegister();
    await user.click(submit());
    expect(await screen.findByText('Email is required')).toBeVisible();
    await user.type(input('Email'), 'g');
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(screen.getByText('First name must be at least 2 characters')).toBeVisible();
  });

  it('has show/hide toggles on both password fields', async () => {
    const { user } = await openRegister();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    await user.click(screen.getByRole('button', { name: 'Show confirm password' }));
    expect(input('Password').type).toBe('text');
    expect(input('Confirm Password').type).toBe('text');
  });

  it('sends the account without the confirmation and shows the success screen', async () => {
    let body: unknown;
    const { user } = await openRegister({
      'POST /auth/register': async (request) => {
        body = await request.json();
        return jsonResponse({ message: REGISTERED }, { status: 201 });
      },
    });
    await fillValid(user);
    await user.click(submit());

    expect(await screen.findByRole('heading', { level: 1, name: 'Registration Successful' })).toBeVisible();
    expect(body).toEqual({
      email: 'grace@example.com',
      username: 'grace_h',
      first_name: 'Grace',
      last_name: 'Hopper',
      password: 'Passw0rd!',
    });
    expect(screen.getByText(REGISTERED)).toBeVisible();
    expect(screen.getByText('The link in it is valid for 24 hours.')).toBeVisible();
    // Said once: the server's sentence, not a second one saying the same.
    expect(screen.queryByText(/We sent a verification email/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to Login' }).getAttribute('href')).toBe('#/login');
    expect(screen.getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe(
      '#/resend-verification',
    );
    // The fields are cleared: nothing typed is left on the page.
    expect(screen.queryByDisplayValue('Passw0rd!')).toBeNull();
    expect(screen.queryByDisplayValue('grace@example.com')).toBeNull();
  });

  it("shows the server's message for the first account (admin, no e-mail needed)", async () => {
    const first =
      'Registration successful! You are the first user, so your account is an administrator and ready to use.';
    const { user } = await openRegister({
      'POST /auth/register': () => jsonResponse({ message: first }, { status: 201 }),
    });
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findByText(first)).toBeVisible();
    expect(screen.queryByText(/valid for 24 hours/)).toBeNull();
  });

  it.each([
    [
      'closed registration (403)',
      () =>
        errorResponse(
          403,
          'Registration is closed on this instance. Ask an administrator to create an account for you.',
        ),
      'Registration is closed on this instance. Ask an administrator to create an account for you.',
    ],
    [
      'a taken e-mail (409)',
      () => errorResponse(409, 'An account with this email already exists'),
      'An account with this email already exists',
    ],
    ['no message', () => new Response('oops', { status: 500 }), 'Registration failed'],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
      'Network error. Please try again.',
    ],
  ])('shows %s in a banner and keeps the form', async (_name, handler: FetchHandler, text) => {
    const { user } = await openRegister({ 'POST /auth/register': handler });
    await fillValid(user);
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toContain(text);
    expect(input('Email').value).toBe('grace@example.com');
  });

  it("puts the server's field messages on the fields", async () => {
    const { user } = await openRegister({
      'POST /auth/register': () =>
        errorResponse(400, 'This username is already taken', {
          fields: { username: 'This username is already taken' },
        }),
    });
    await fillValid(user);
    await user.click(submit());
    expect(await screen.findAllByText('This username is already taken')).toHaveLength(2);
    expect(input('Username').getAttribute('aria-invalid')).toBe('true');
  });
});
