import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { GitHubTokenStatus, SlackWebhookStatus } from '#shared/schemas/auth.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';

async function openSettings(tab: string, handlers: Record<string, FetchHandler> = {}, overrides = {}) {
  const member = signIn(buildUser(overrides));
  const rendered = renderApp({ route: tab ? `/settings?tab=${tab}` : '/settings', handlers });
  // The lazily loaded screen's first load (a cold transform on a busy machine) can take over a second.
  await screen.findByRole('heading', { level: 1, name: 'Settings' }, { timeout: 5000 });
  return { ...rendered, member };
}

const passwordInput = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input' }) as HTMLInputElement;

afterEach(() => {
  vi.useRealTimers();
});

describe('Settings tabs', () => {
  it('has Password, Security, GitHub Access, API tokens, Notifications and Preferences; Preferences is Coming Soon', async () => {
    const { user } = await openSettings('');
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual([
      'Password',
      'Security',
      'GitHub Access',
      'API tokens',
      'Notifications',
      'Preferences',
    ]);
    expect(screen.getByRole('tab', { name: 'Password' }).getAttribute('aria-selected')).toBe('true');
    await user.click(screen.getByRole('tab', { name: 'Preferences' }));
    expect(await screen.findByText('Coming Soon')).toBeVisible();
    expect(window.location.hash).toBe('#/settings?tab=preferences');
  });
});

describe('Password tab', () => {
  it('shows the field messages', async () => {
    const { user } = await openSettings('password');
    const submit = screen.getByRole('button', { name: 'Change Password' });
    await user.click(submit);
    expect(await screen.findByText('Current password is required')).toBeVisible();
    expect(screen.getByText('New password is required')).toBeVisible();

    await user.type(passwordInput('Current Password'), 'OldPassw0rd');
    await user.type(passwordInput('New Password'), 'short');
    await user.type(passwordInput('Confirm New Password'), 'shorter');
    await user.click(submit);
    expect(await screen.findByText('New password must be at least 8 characters long')).toBeVisible();
    expect(screen.getByText('New passwords do not match')).toBeVisible();

    await user.clear(passwordInput('New Password'));
    await user.type(passwordInput('New Password'), 'OldPassw0rd');
    await user.click(submit);
    expect(await screen.findByText('New password must be different from current password')).toBeVisible();
  });

  it.each([
    ['abc', 'Weak', '1'],
    ['abcdefgh', 'Weak', '2'],
    ['Abcdefg1', 'Medium', '4'],
    ['Abcdefgh1234!', 'Strong', '6'],
  ])('rates %s as %s (score %s of 6)', async (value, label, score) => {
    const { user } = await openSettings('password');
    await user.type(passwordInput('New Password'), value);
    expect(screen.getByText(`${score}/6`)).toBeVisible();
    expect(screen.getByText(label).getAttribute('data-strength')).toBe(label);
    const meter = screen.getByRole('progressbar', { name: 'Password strength' });
    expect(Number(meter.getAttribute('aria-valuenow'))).toBeCloseTo((Number(score) / 6) * 100, 5);
  });

  it('lists the hints without enforcing them', async () => {
    await openSettings('password');
    const hints = screen.getByRole('list', { name: 'Password hints' });
    for (const hint of ['An uppercase letter', 'A lowercase letter', 'A number', 'A special character']) {
      expect(within(hints).getByText(hint)).toBeVisible();
    }
  });

  it("changes the password with this session's refresh token, then clears the message after 5 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let body: unknown;
    const { user } = await openSettings('password', {
      'POST /auth/change-password': async (request) => {
        body = await request.json();
        return jsonResponse({
          message: 'Password changed successfully. Your other sessions have been signed out.',
          access_token: 'new-access-token',
          refresh_token: 'new-refresh-token',
        });
      },
    });
    await user.type(passwordInput('Current Password'), 'OldPassw0rd');
    await user.type(passwordInput('New Password'), 'weakbutlong');
    await user.type(passwordInput('Confirm New Password'), 'weakbutlong');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));

    expect(
      await screen.findByText('Password changed successfully. Your other sessions have been signed out.'),
    ).toBeVisible();
    expect(body).toEqual({
      current_password: 'OldPassw0rd',
      new_password: 'weakbutlong',
      refresh_token: 'test-refresh-token',
    });
    // Every earlier token died with the old password: this browser carries on with the new pair.
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('new-access-token');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('new-refresh-token');
    expect(passwordInput('Current Password').value).toBe('');
    await act(() => vi.advanceTimersByTimeAsync(5_100));
    expect(screen.queryByText(/Password changed successfully/)).toBeNull();
  });

  it('shows a wrong current password once, on its field, without a banner repeating it', async () => {
    const { user } = await openSettings('password', {
      'POST /auth/change-password': () =>
        errorResponse(400, 'Current password is incorrect', {
          fields: { current_password: 'Current password is incorrect' },
        }),
    });
    await user.type(passwordInput('Current Password'), 'OldPassw0rd');
    await user.type(passwordInput('New Password'), 'NewPassw0rd');
    await user.type(passwordInput('Confirm New Password'), 'NewPassw0rd');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeVisible();
    expect(screen.getAllByText('Current password is incorrect')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    [
      'the server message',
      () => errorResponse(400, 'Current password is incorrect'),
      'Current password is incorrect',
    ],
    ['the fallback', () => new Response('oops', { status: 500 }), 'Failed to change password'],
  ])('shows %s on failure', async (_name, handler: FetchHandler, text) => {
    const { user } = await openSettings('password', { 'POST /auth/change-password': handler });
    await user.type(passwordInput('Current Password'), 'OldPassw0rd');
    await user.type(passwordInput('New Password'), 'NewPassw0rd');
    await user.type(passwordInput('Confirm New Password'), 'NewPassw0rd');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });
});

describe('Security tab', () => {
  it('shows the account facts read-only', async () => {
    await openSettings('security', {}, { is_admin: true, last_login_at: null });
    const facts = screen.getByRole('heading', { name: 'Account Security' }).parentElement as HTMLElement;
    const value = (label: string) =>
      (within(facts).getByText(label).nextElementSibling as HTMLElement).textContent;
    expect(value('Email Verified')).toBe('Yes');
    expect(value('Account Active')).toBe('Active');
    expect(value('Administrator')).toBe('Yes');
    expect(value('Username')).toBe('alice');
    expect(value('Email')).toBe('alice@example.com');
    expect(value('Last Login')).toBe('Never');
    expect(within(facts).queryByRole('textbox')).toBeNull();
  });

  it('signs out of every session after confirming', async () => {
    const logoutAll = vi.fn(() => jsonResponse({ message: 'Signed out of every session' }));
    const { user } = await openSettings('security', { 'POST /auth/logout-all': logoutAll });
    // The feed address goes with the sessions, and the screen says so before and in the dialog.
    expect(
      screen.getByText(/Your activity feed address stops working too: make a new one under Notifications\./),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Sign out of all sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out of all sessions?' });
    expect(dialog).toHaveTextContent('your activity feed address will stop working');
    await user.click(within(dialog).getByRole('button', { name: 'Sign Out Everywhere' }));
    expect(await screen.findByRole('link', { name: 'Get Started' })).toBeVisible();
    expect(logoutAll).toHaveBeenCalledOnce();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});

const noToken: GitHubTokenStatus = {
  has_personal_token: false,
  token_last_four: null,
  token_set_at: null,
  shared_quota_remaining: null,
};
const withToken: GitHubTokenStatus = {
  has_personal_token: true,
  token_last_four: 'wxyz',
  token_set_at: '2026-03-04T10:00:00.000Z',
  shared_quota_remaining: 4321,
};
const noWebhook: SlackWebhookStatus = { has_webhook: false, webhook_set_at: null };
const withWebhook: SlackWebhookStatus = { has_webhook: true, webhook_set_at: '2026-03-05T10:00:00.000Z' };

function githubHandlers(
  token: GitHubTokenStatus,
  webhook: SlackWebhookStatus,
  extra: Record<string, FetchHandler> = {},
) {
  return {
    'GET /auth/me/github-token': () => jsonResponse(token),
    'GET /auth/me/slack-webhook': () => jsonResponse(webhook),
    ...extra,
  };
}

const card = (title: string) =>
  screen.getByRole('heading', { level: 2, name: title }).closest('.mantine-Paper-root') as HTMLElement;

describe('GitHub Access tab: personal token', () => {
  it('shows Not configured, and no Remove button', async () => {
    await openSettings('github', githubHandlers(noToken, noWebhook));
    const token = card('Personal GitHub Token');
    expect(await within(token).findByText('Not configured')).toBeVisible();
    expect(within(token).queryByRole('button', { name: 'Remove Token' })).toBeNull();
    expect(within(token).queryByText(/Shared quota remaining/)).toBeNull();
  });

  it('shows Configured with the last four, the date and the shared quota', async () => {
    await openSettings('github', githubHandlers(withToken, noWebhook));
    const token = card('Personal GitHub Token');
    expect(await within(token).findByText('Configured')).toBeVisible();
    expect(within(token).getByText('…wxyz')).toBeVisible();
    expect(within(token).getByText(/2026/)).toBeVisible();
    expect(within(token).getByText(/Shared quota remaining: 4,321 requests/)).toBeVisible();
  });

  it("requires a token ('Personal GitHub token is required')", async () => {
    const { user } = await openSettings('github', githubHandlers(noToken, noWebhook));
    const token = card('Personal GitHub Token');
    await user.click(await within(token).findByRole('button', { name: 'Save Token' }));
    expect(await within(token).findByText('Personal GitHub token is required')).toBeVisible();
  });

  it('saves a token and shows the new status; the user knows it has one', async () => {
    let body: unknown;
    const { user } = await openSettings(
      'github',
      githubHandlers(noToken, noWebhook, {
        'PUT /auth/me/github-token': async (request) => {
          body = await request.json();
          return jsonResponse({ ...withToken, token_last_four: '1234' });
        },
      }),
    );
    const token = card('Personal GitHub Token');
    await user.type(
      within(token).getByLabelText(/^Personal access token/, { selector: 'input' }),
      'ghp_abc1234',
    );
    await user.click(within(token).getByRole('button', { name: 'Save Token' }));
    expect(await within(token).findByText('GitHub token saved')).toBeVisible();
    expect(body).toEqual({ token: 'ghp_abc1234' });
    expect(within(token).getByText('Configured')).toBeVisible();
    expect(within(token).getByText('…1234')).toBeVisible();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? '{}').has_personal_github_token).toBe(true);
  });

  it("asks 'Remove your personal GitHub token?' and keeps it on Cancel", async () => {
    const remove = vi.fn(() => jsonResponse(noToken));
    const { user } = await openSettings(
      'github',
      githubHandlers(withToken, noWebhook, { 'DELETE /auth/me/github-token': remove }),
    );
    const token = card('Personal GitHub Token');
    await user.click(await within(token).findByRole('button', { name: 'Remove Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove your personal GitHub token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(remove).not.toHaveBeenCalled();
    expect(within(token).getByText('Configured')).toBeVisible();

    await user.click(within(token).getByRole('button', { name: 'Remove Token' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove your personal GitHub token?' })).getByRole(
        'button',
        {
          name: 'Remove Token',
        },
      ),
    );
    expect(await within(token).findByText('GitHub token removed')).toBeVisible();
    expect(remove).toHaveBeenCalledOnce();
    expect(within(token).getByText('Not configured')).toBeVisible();
  });

  it.each([
    ['GET', 'Failed to load GitHub token status'],
    ['PUT', 'Failed to save GitHub token'],
  ])('shows the fallback text when %s fails without a message', async (method, text) => {
    const handlers = githubHandlers(noToken, noWebhook, {
      [`${method} /auth/me/github-token`]: () => new Response('oops', { status: 500 }),
    });
    const { user } = await openSettings('github', handlers);
    const token = card('Personal GitHub Token');
    if (method === 'PUT') {
      await user.type(
        within(token).getByLabelText(/^Personal access token/, { selector: 'input' }),
        'ghp_abc',
      );
      await user.click(within(token).getByRole('button', { name: 'Save Token' }));
    }
    expect((await within(token).findAllByText(text)).length).toBeGreaterThan(0);
  });

  it("shows the server's message when a removal fails", async () => {
    const { user } = await openSettings(
      'github',
      githubHandlers(withToken, noWebhook, {
        'DELETE /auth/me/github-token': () => new Response('oops', { status: 500 }),
      }),
    );
    const token = card('Personal GitHub Token');
    await user.click(await within(token).findByRole('button', { name: 'Remove Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove your personal GitHub token?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Token' }));
    expect(await within(token).findByText('Failed to remove GitHub token')).toBeVisible();
  });
});

describe('GitHub Access tab: Slack webhook', () => {
  it('shows Not configured / Configured', async () => {
    await openSettings('github', githubHandlers(noToken, withWebhook));
    const webhook = card('Slack Webhook');
    expect(await within(webhook).findByText('Configured')).toBeVisible();
    expect(within(webhook).getByRole('button', { name: 'Remove Webhook' })).toBeEnabled();
  });

  it("requires a URL ('Slack webhook URL is required'), trims it and saves it", async () => {
    let body: unknown;
    const { user } = await openSettings(
      'github',
      githubHandlers(noToken, noWebhook, {
        'PUT /auth/me/slack-webhook': async (request) => {
          body = await request.json();
          return jsonResponse(withWebhook);
        },
      }),
    );
    const webhook = card('Slack Webhook');
    expect(await within(webhook).findByText('Not configured')).toBeVisible();
    await user.type(within(webhook).getByRole('textbox', { name: /^Webhook URL/ }), '   ');
    await user.click(within(webhook).getByRole('button', { name: 'Save Webhook' }));
    expect(await within(webhook).findByText('Slack webhook URL is required')).toBeVisible();

    await user.type(
      within(webhook).getByRole('textbox', { name: /^Webhook URL/ }),
      'https://hooks.slack.com/services/T0/B0/X  ',
    );
    await user.click(within(webhook).getByRole('button', { name: 'Save Webhook' }));
    expect(await within(webhook).findByText('Slack webhook saved')).toBeVisible();
    expect(body).toEqual({ url: 'https://hooks.slack.com/services/T0/B0/X' });
    expect(within(webhook).getByText('Configured')).toBeVisible();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? '{}').has_slack_webhook).toBe(true);
  });

  it("shows the server's refusal of a URL", async () => {
    const { user } = await openSettings(
      'github',
      githubHandlers(noToken, noWebhook, {
        'PUT /auth/me/slack-webhook': () => errorResponse(400, 'Webhook host is not allowed'),
      }),
    );
    const webhook = card('Slack Webhook');
    await user.type(
      await within(webhook).findByRole('textbox', { name: /^Webhook URL/ }),
      'https://evil.example/x',
    );
    await user.click(within(webhook).getByRole('button', { name: 'Save Webhook' }));
    expect(await within(webhook).findByText('Webhook host is not allowed')).toBeVisible();
  });

  it("asks 'Remove the Slack webhook?' before removing it", async () => {
    const remove = vi.fn(() => jsonResponse(noWebhook));
    const { user } = await openSettings(
      'github',
      githubHandlers(noToken, withWebhook, { 'DELETE /auth/me/slack-webhook': remove }),
    );
    const webhook = card('Slack Webhook');
    await user.click(await within(webhook).findByRole('button', { name: 'Remove Webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the Slack webhook?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Webhook' }));
    expect(await within(webhook).findByText('Slack webhook removed')).toBeVisible();
    expect(remove).toHaveBeenCalledOnce();
    expect(within(webhook).getByText('Not configured')).toBeVisible();
  });

  it("says 'Failed to load Slack webhook status' when the status can't be read", async () => {
    await openSettings(
      'github',
      githubHandlers(noToken, noWebhook, {
        'GET /auth/me/slack-webhook': () => new Response('x', { status: 500 }),
      }),
    );
    const webhook = card('Slack Webhook');
    expect(
      (await within(webhook).findAllByText('Failed to load Slack webhook status')).length,
    ).toBeGreaterThan(0);
  });
});
