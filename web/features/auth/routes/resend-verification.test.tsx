import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse, renderApp } from '../../../../test/web/render.tsx';

const RESENT =
  'If an account with that email exists and is not yet verified, a new verification email has been sent.';

describe('Resend verification', () => {
  it("sends the e-mail and shows the server's answer", async () => {
    let body: unknown;
    const { user } = renderApp({
      route: '/resend-verification',
      handlers: {
        'POST /auth/resend-verification': async (request) => {
          body = await request.json();
          return jsonResponse({ success: true, message: RESENT });
        },
      },
    });
    await user.type(await screen.findByRole('textbox', { name: /Email Address/ }), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Email' }));
    expect((await screen.findByRole('status')).textContent).toBe(RESENT);
    expect(body).toEqual({ email: 'grace@example.com' });
  });

  it('validates the address and shows failures', async () => {
    const { user } = renderApp({
      route: '/resend-verification',
      handlers: {
        'POST /auth/resend-verification': () => errorResponse(429, 'Too many requests. Try again later.'),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Send Verification Email' }));
    expect(await screen.findByText('Email address is required')).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /Email Address/ }), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Verification Email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests. Try again later.');
  });
});
