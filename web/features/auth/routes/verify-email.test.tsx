import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#web/lib/api-client.ts';
import { errorResponse, type FetchHandler, jsonResponse, renderApp } from '../../../../test/web/render.tsx';
import { AUTH_MESSAGES } from '../messages.ts';
import { verifyErrorMessage } from './verify-email.tsx';

const TOKEN = 'k7Q2xZ9pL4mN8vB1cD3eF5gH';
const VERIFIED = 'Email verified successfully! You can now sign in.';

function openVerify(handler: FetchHandler, route = `/verify-email?token=${TOKEN}`) {
  return renderApp({ route, handlers: { 'POST /auth/verify-email': handler } });
}

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('Verify e-mail', () => {
  it('shows a spinner, sends the token once, then success; redirects to /login after 3 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const bodies: unknown[] = [];
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    openVerify(async (request) => {
      bodies.push(await request.json());
      await answered;
      return jsonResponse({ success: true, message: VERIFIED });
    });
    // The check is held until the spinner has been seen.
    expect(await screen.findByText('Verifying your email address…')).toBeVisible();
    await act(async () => answer());
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verified' })).toBeVisible();
    expect(screen.getByText(VERIFIED)).toBeVisible();
    expect(bodies).toEqual([{ token: TOKEN }]);
    // The one-time token leaves the address bar once read.
    expect(window.location.hash).toBe('#/verify-email');

    await act(() => vi.advanceTimersByTimeAsync(2_900));
    expect(window.location.hash).toBe('#/verify-email');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
    expect(window.location.hash).toBe('#/login');
  });

  it('offers a Go to Login button on success', async () => {
    const { user } = openVerify(() => jsonResponse({ success: true, message: VERIFIED }));
    await user.click(await screen.findByRole('link', { name: 'Go to Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible();
  });

  it('reads the token from the page query string too (/?token=…#/verify-email)', async () => {
    window.history.replaceState(null, '', `/?token=${TOKEN}`);
    const bodies: unknown[] = [];
    openVerify(async (request) => {
      bodies.push(await request.json());
      return jsonResponse({ success: true, message: VERIFIED });
    }, '/verify-email');
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verified' })).toBeVisible();
    expect(bodies).toEqual([{ token: TOKEN }]);
    expect(window.location.search).toBe('');
  });

  it.each([
    ['400', () => errorResponse(400, 'Invalid or expired verification token.'), AUTH_MESSAGES.verifyInvalid],
    ['404', () => errorResponse(404, 'Not found'), AUTH_MESSAGES.verifyNotFound],
    [
      '500',
      () => jsonResponse({ message: 'Internal error', code: 'internal_error' }, { status: 500 }),
      AUTH_MESSAGES.verifyServer,
    ],
    ['503', () => new Response('down', { status: 503 }), AUTH_MESSAGES.verifyServer],
    [
      '429 (its own message)',
      () => errorResponse(429, 'Too many requests, retry in 60 s', { retry_after: 60 }),
      'Too many requests, retry in 60 s',
    ],
    [
      'a network failure',
      () => {
        throw new TypeError('Failed to fetch');
      },
      AUTH_MESSAGES.verifyNetwork,
    ],
  ])('maps %s to its message on the failure screen', async (_name, handler: FetchHandler, message) => {
    openVerify(handler);
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification Failed' })).toBeVisible();
    expect(screen.getByRole('alert').textContent).toBe(message);
  });

  it('checks again when a newer link is opened in the tab that shows a failure', async () => {
    const NEWER = 'n3wErT0kEnZ9pL4mN8vB1cD3';
    const bodies: unknown[] = [];
    openVerify(async (request) => {
      const body = (await request.json()) as { token: string };
      bodies.push(body);
      return body.token === NEWER
        ? jsonResponse({ success: true, message: VERIFIED })
        : errorResponse(400, 'Invalid or expired verification token.');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification Failed' })).toBeVisible();
    // The mail client opens the newer link in the same tab: only the hash changes.
    act(() => {
      window.location.hash = `#/verify-email?token=${NEWER}`;
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Email Verified' })).toBeVisible();
    expect(bodies).toEqual([{ token: TOKEN }, { token: NEWER }]);
    expect(window.location.hash).toBe('#/verify-email');
  });

  it('lists possible causes and offers Register Again and Try to Login', async () => {
    openVerify(() => errorResponse(404, 'Not found'));
    await screen.findByRole('heading', { level: 1, name: 'Verification Failed' });
    expect(screen.getByText('Possible causes:')).toBeVisible();
    expect(screen.getByText(/The link has expired \(links are valid for 24 hours\)/)).toBeVisible();
    expect(screen.getByText(/The link has already been used/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Register Again' }).getAttribute('href')).toBe('#/register');
    expect(screen.getByRole('link', { name: 'Try to Login' }).getAttribute('href')).toBe('#/login');
  });

  it('says so when the link has no token, without calling the server', async () => {
    const { fetchMock } = openVerify(() => jsonResponse({}), '/verify-email');
    await screen.findByRole('heading', { level: 1, name: 'Verification Failed' });
    expect(screen.getByRole('alert').textContent).toBe(AUTH_MESSAGES.verifyMissingToken);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/auth/verify-email'))).toBe(false);
  });

  it('rejects a token shorter than 10 characters', async () => {
    openVerify(() => jsonResponse({}), '/verify-email?token=short');
    const failure = await screen.findByRole('alert');
    expect(failure.textContent).toBe(
      'Invalid verification token format. Please use the link from your email.',
    );
  });

  it('falls back to the generic text for anything that is not an API answer', () => {
    expect(verifyErrorMessage(new Error('boom'))).toBe(AUTH_MESSAGES.verifyFallback);
    expect(verifyErrorMessage(new ApiError('Request timeout', 0))).toBe('Request timeout');
  });
});
