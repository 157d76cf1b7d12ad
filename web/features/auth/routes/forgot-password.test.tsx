import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, type FetchHandler, jsonResponse, renderApp } from '../../../../test/web/render.tsx';
import { forgotErrorMessage } from './forgot-password.tsx';

const SENT = 'If the email exists, a password reset link has been sent.';

async function openForgot(handler?: FetchHandler) {
  const rendered = renderApp({
    route: '/forgot-password',
    handlers: handler ? { 'POST /auth/forgot-password': handler } : {},
  });
  await screen.findByRole('heading', { level: 1, name: 'Forgot Password' });
  const email = screen.getByRole('textbox', { name: /Email Address/ });
  const send = screen.getByRole('button', { name: 'Send Reset Link' });
  return { ...rendered, email, send };
}

describe('Forgot password', () => {
  it("requires an e-mail ('Email address is required') and a valid one", async () => {
    const { user, email, send, fetchMock } = await openForgot();
    await user.click(send);
    expect(await screen.findByText('Email address is required')).toBeVisible();
    await user.type(email, 'not-an-email');
    await user.click(send);
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/auth/forgot-password'))).toBe(false);
  });

  it("shows 'Check Your Email' with the spam hint, the 1 hour expiry and Back to Login", async () => {
    let body: unknown;
    const { user, email, send } = await openForgot(async (request) => {
      body = await request.json();
      return jsonResponse({ success: true, message: SENT });
    });
    await user.type(email, '  grace@example.com ');
    await user.click(send);

    expect(await screen.findByRole('heading', { level: 1, name: 'Check Your Email' })).toBeVisible();
    expect(body).toEqual({ email: 'grace@example.com' });
    expect(screen.getByText(SENT)).toBeVisible();
    expect(screen.getByText(/spam/)).toBeVisible();
    expect(screen.getByText(/expires in 1 hour/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Login' }).getAttribute('href')).toBe('#/login');
  });

  it.each([
    [600, 10],
    [61, 2],
    [undefined, 15],
  ])('turns a 429 with retry_after %s into %i minutes', async (retryAfter, minutes) => {
    const { user, email, send } = await openForgot(() =>
      errorResponse(429, 'Too many requests', retryAfter === undefined ? {} : { retry_after: retryAfter }),
    );
    await user.type(email, 'grace@example.com');
    await user.click(send);
    expect((await screen.findByRole('alert')).textContent).toBe(
      `Too many password reset requests. Please try again in ${minutes} minutes.`,
    );
  });

  it.each([
    [
      'the server message',
      () => errorResponse(400, 'Please enter a valid email address'),
      'Please enter a valid email address',
    ],
    [
      'the fallback',
      () => new Response('bad gateway', { status: 502 }),
      'Failed to send password reset email',
    ],
  ])('shows %s for other failures', async (_name, handler: FetchHandler, text) => {
    const { user, email, send } = await openForgot(handler);
    await user.type(email, 'grace@example.com');
    await user.click(send);
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it("says 'An unexpected error occurred. Please try again.' for anything else", () => {
    expect(forgotErrorMessage(new Error('boom'))).toBe('An unexpected error occurred. Please try again.');
  });
});
