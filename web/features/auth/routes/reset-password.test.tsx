import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  errorResponse,
  type FetchHandler,
  jsonResponse,
  navigateTo,
  renderApp,
} from '../../../../test/web/render.tsx';
import { AUTH_MESSAGES } from '../messages.ts';

const TOKEN = 'reset-token-0123456789abcdef';
const DONE = 'Your password has been reset. You can now sign in with your new password.';

const validToken: FetchHandler = () => jsonResponse({ success: true, message: 'Reset token is valid' });

function openReset(handlers: Record<string, FetchHandler>, route = `/reset-password?token=${TOKEN}`) {
  return renderApp({ route, handlers });
}

async function openForm(reset?: FetchHandler) {
  const rendered = openReset({
    'POST /auth/verify-reset-token': validToken,
    ...(reset ? { 'POST /auth/reset-password': reset } : {}),
  });
  await screen.findByRole('heading', { level: 1, name: 'Reset Password' });
  const password = await screen.findByLabelText(/^New Password/, { selector: 'input' });
  const confirm = screen.getByLabelText(/^Confirm New Password/, { selector: 'input' });
  const submit = screen.getByRole('button', { name: 'Reset Password' });
  return { ...rendered, password, confirm, submit };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Reset password', () => {
  it('validates the link first, then shows the form; the token leaves the address bar', async () => {
    let checked = '';
    let checkedUrl = '';
    openReset({
      'POST /auth/verify-reset-token': async (request) => {
        checkedUrl = request.url;
        checked = ((await request.json()) as { token: string }).token;
        return validToken(request);
      },
    });
    expect(await screen.findByText('Validating your reset link…')).toBeVisible();
    expect(await screen.findByLabelText(/^New Password/, { selector: 'input' })).toBeEnabled();
    // In the body, never in the URL, where request logs would keep it.
    expect(checked).toBe(TOKEN);
    expect(new URL(checkedUrl).search).toBe('');
    expect(window.location.hash).toBe('#/reset-password');
  });

  it.each([
    ['400', () => errorResponse(400, 'Invalid or expired reset token')],
    ['404', () => errorResponse(404, 'Not found')],
  ])("shows 'Invalid Reset Link' when the check answers %s", async (_status, handler: FetchHandler) => {
    openReset({ 'POST /auth/verify-reset-token': handler });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible();
    expect(screen.getByRole('alert').textContent).toBe(AUTH_MESSAGES.resetInvalidToken);
    expect(screen.getByRole('link', { name: 'Request New Reset Link' }).getAttribute('href')).toBe(
      '#/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('#/login');
  });

  it('checks the link again on every visit (a used link is invalid the next time)', async () => {
    let calls = 0;
    openReset({
      'POST /auth/verify-reset-token': (request) => {
        calls += 1;
        return calls === 1 ? validToken(request) : errorResponse(400, 'Invalid or expired reset token');
      },
    });
    expect(await screen.findByLabelText(/^New Password/, { selector: 'input' })).toBeEnabled();
    await navigateTo('/login');
    await navigateTo(`/reset-password?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible();
    expect(calls).toBe(2);
  });

  it('shows the invalid link screen without calling the server when there is no token', async () => {
    const check = vi.fn(validToken);
    openReset({ 'POST /auth/verify-reset-token': check }, '/reset-password');
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible();
    expect(screen.getByRole('alert').textContent).toBe(
      'Invalid reset link. Please request a new password reset.',
    );
    expect(check).not.toHaveBeenCalled();
  });

  it("says 'Failed to verify reset token' and offers a retry when the check can't be made", async () => {
    let calls = 0;
    const { user } = openReset({
      'POST /auth/verify-reset-token': (request) => {
        calls += 1;
        return calls === 1 ? new Response('down', { status: 503 }) : validToken(request);
      },
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to verify reset token');
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByLabelText(/^New Password/, { selector: 'input' })).toBeEnabled();
  });

  it('ticks the checklist live as the password is typed', async () => {
    const { user, password } = await openForm();
    const list = screen.getByRole('list', { name: 'Password requirements' });
    const item = (label: string) => within(list).getByText(label).closest('li') as HTMLElement;
    const met = (label: string) => item(label).getAttribute('data-met');

    expect(met('at least 8 characters long')).toBe('false');
    await user.type(password, 'abc');
    expect(met('at least one lowercase letter')).toBe('true');
    expect(met('at least one uppercase letter')).toBe('false');
    await user.type(password, 'DEF12');
    expect(met('at least one uppercase letter')).toBe('true');
    expect(met('at least one number')).toBe('true');
    expect(met('at least 8 characters long')).toBe('true');
  });

  it('lists the missing parts in one message, and checks the confirmation', async () => {
    const { user, password, confirm, submit } = await openForm();
    await user.click(submit);
    expect(await screen.findByText('Password is required')).toBeVisible();
    expect(screen.getByText('Please confirm your password')).toBeVisible();

    await user.type(password, 'abcdef');
    await user.type(confirm, 'abcdeg');
    await user.click(submit);
    expect(
      await screen.findByText(
        'Password must contain at least 8 characters long, at least one uppercase letter, at least one number',
      ),
    ).toBeVisible();
    expect(screen.getByText('Passwords do not match')).toBeVisible();
  });

  it('resets, shows the success screen and goes to /login after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let body: unknown;
    const { user, password, confirm, submit } = await openForm(async (request) => {
      body = await request.json();
      return jsonResponse({ success: true, message: DONE });
    });
    await user.type(password, 'NewPassw0rd');
    await user.type(confirm, 'NewPassw0rd');
    await user.click(submit);

    expect(await screen.findByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeVisible();
    expect(body).toEqual({ token: TOKEN, new_password: 'NewPassw0rd' });
    expect(screen.getByText(DONE)).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(3_100));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  });

  it.each([
    [
      'a used or expired token',
      () => errorResponse(400, 'Invalid or expired reset token'),
      AUTH_MESSAGES.resetInvalidToken,
    ],
    ['no message', () => new Response('oops', { status: 500 }), 'Failed to reset password'],
  ])('shows %s after submitting', async (_name, handler: FetchHandler, text) => {
    const { user, password, confirm, submit } = await openForm(handler);
    await user.type(password, 'NewPassw0rd');
    await user.type(confirm, 'NewPassw0rd');
    await user.click(submit);
    expect((await screen.findByRole('alert')).textContent).toContain(text);
  });
});
