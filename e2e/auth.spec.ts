import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  createVerifiedAccount,
  input,
  newAccount,
  openUserMenuItem,
  registerThrowawayFirstAccount,
  signIn,
  storeApiSession,
} from './helpers/accounts.ts';
import { type Screen, screenModes, walkScreens } from './helpers/axe.ts';
import { waitForLink } from './helpers/mail.ts';

/**
 * Issue 3's journeys against the built app, a real SMTP sink and SQLite: the whole account
 * life cycle through the screens, and the 401 → one shared refresh path in two tabs.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/account-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

test.beforeAll(async ({ request }) => {
  await registerThrowawayFirstAccount(request);
});

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test('register → verify by mail → sign in (remember me) → reload → profile → password → sign out → forgot → reset → sign in', async ({
  page,
  request,
}) => {
  const account = newAccount('journey');
  const changedPassword = 'Changed2Passw0rd';
  const resetPassword = 'Reset3Passw0rd';

  // Register.
  await page.goto('/#/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await input(page, 'Email').fill(account.email);
  await input(page, 'Username').fill(account.username);
  await input(page, 'First Name').fill(account.first_name);
  await input(page, 'Last Name').fill(account.last_name);
  await input(page, 'Password').fill(account.password);
  await input(page, 'Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Registration Successful' })).toBeVisible();
  await expect(page.getByText('Please check your email to verify your account.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Resend verification email' })).toHaveAttribute(
    'href',
    '#/resend-verification',
  );

  // Not yet verified: signing in is refused with the server's explanation.
  await signIn(page, account.username, account.password);
  await expect(page.getByRole('alert')).toContainText('Please verify your email address before signing in.');

  // Verify with the link from the mail; the page goes to sign-in after 3 s.
  const verifyLink = await waitForLink(request, account.email, 'verify-email');
  await page.goto(verifyLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Email Verified' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/verify-email');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible({ timeout: 6_000 });

  // Sign in, remembered for 24 hours.
  await signIn(page, account.username, account.password, true);
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/home');
  expect(await page.evaluate(() => localStorage.getItem('remember_me'))).toBe('true');
  await expect(sidebar(page).getByText('Ada Lovelace')).toBeVisible();

  // A reload keeps the session (checked with GET /auth/me).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
  await expect(sidebar(page).getByText('Ada Lovelace')).toBeVisible();

  // Profile: edit, save, and it sticks.
  await openUserMenuItem(page, 'Ada Lovelace', 'Profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await input(page, 'First Name').fill('Augusta');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(sidebar(page).getByText('Augusta Lovelace')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Augusta', { exact: true })).toBeVisible();

  // Settings: change the password; this session stays signed in.
  await openUserMenuItem(page, 'Augusta Lovelace', 'Settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await input(page, 'Current Password').fill(account.password);
  await input(page, 'New Password').fill(changedPassword);
  await expect(page.getByText('Password strength:')).toContainText('Strong');
  await input(page, 'Confirm New Password').fill(changedPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText(/Password changed successfully/)).toBeVisible();
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Security' }).getByText(account.email)).toBeVisible();

  // Sign out: back to the landing page, nothing left in storage.
  await openUserMenuItem(page, 'Augusta Lovelace', 'Sign Out');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  expect(new URL(page.url()).hash).toBe('#/');
  expect(
    await page.evaluate(() => [localStorage.getItem('access_token'), localStorage.getItem('user')]),
  ).toEqual([null, null]);

  // Forgot password → mail → reset.
  await page.goto('/#/forgot-password');
  await input(page, 'Email Address').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText(/spam/)).toBeVisible();

  const resetLink = await waitForLink(request, account.email, 'reset-password');
  await page.goto(resetLink);
  await expect(input(page, 'New Password')).toBeVisible();
  // The token is read, then removed from the address bar (docs/security.md#b3).
  expect(new URL(page.url()).hash).toBe('#/reset-password');
  await input(page, 'New Password').fill(resetPassword);
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  await expect(checklist.locator('li[data-met="true"]')).toHaveCount(4);
  await input(page, 'Confirm New Password').fill(resetPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign In' })).toBeVisible({ timeout: 6_000 });

  // The link works once.
  await page.goto(resetLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible();

  // The password before the reset no longer works; the new one does.
  await signIn(page, account.email, changedPassword);
  await expect(page.getByRole('alert')).toContainText('Invalid email/username or password');
  await signIn(page, account.email, resetPassword);
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
  await expect(sidebar(page).getByText('Augusta Lovelace')).toBeVisible();
});

test('an invalid access token in two tabs at once: both recover with exactly one refresh', async ({
  context,
  page,
  request,
}) => {
  const account = newAccount('tabs');
  await createVerifiedAccount(request, account);

  await signIn(page, account.username, account.password, true);
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
  const second = await context.newPage();
  await second.goto('/#/profile');
  await expect(second.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();

  const refreshes: string[] = [];
  const unauthorized = new Map<Page, number>([
    [page, 0],
    [second, 0],
  ]);
  context.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/refresh') {
      refreshes.push(request.url());
    }
  });
  for (const tab of [page, second]) {
    tab.on('response', (response) => {
      if (response.status() === 401) unauthorized.set(tab, (unauthorized.get(tab) ?? 0) + 1);
    });
  }
  // The refresh is held until both tabs have had their 401 (at most 10 s), so both requests fail
  // while it runs however late a loaded machine sends the second tab's.
  await context.route('**/auth/refresh', async (route) => {
    const until = Date.now() + 10_000;
    while (Date.now() < until && [...unauthorized.values()].some((count) => count === 0)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await route.continue();
  });

  // A well-formed JWT the server did not sign: every API call answers 401 with it.
  const forged =
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwidHlwIjoiYWNjZXNzIiwiZXhwIjo0MTAyNDQ0ODAwfQ.c2lnbmF0dXJlLW5vdC1tYWRlLWJ5LXRoZS1zZXJ2ZXI';
  const refreshBefore = await page.evaluate(() => localStorage.getItem('refresh_token'));
  await page.evaluate((token) => localStorage.setItem('access_token', token), forged);

  // Both tabs call the API at the same moment.
  await Promise.all([page.goto('/#/settings?tab=github'), second.goto('/#/settings?tab=github')]);

  for (const tab of [page, second]) {
    await expect(tab.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(tab.getByText('Not configured').first()).toBeVisible();
    await expect(sidebar(tab)).toBeVisible();
    expect(new URL(tab.url()).hash).toBe('#/settings?tab=github');
  }
  expect(unauthorized.get(page)).toBeGreaterThan(0);
  expect(unauthorized.get(second)).toBeGreaterThan(0);
  expect(refreshes).toHaveLength(1);

  const stored = await page.evaluate(() => [
    localStorage.getItem('access_token'),
    localStorage.getItem('refresh_token'),
  ]);
  expect(stored[0]).not.toBe(forged);
  expect(stored[1]).not.toBe(refreshBefore);

  // The rotated session keeps working in both tabs (no reuse detection tripped).
  await Promise.all([page.reload(), second.reload()]);
  for (const tab of [page, second]) {
    await expect(tab.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(sidebar(tab)).toBeVisible();
  }
  expect(refreshes).toHaveLength(1);
});

/** The account screens, signed out and then signed in, each with what shows it is ready. */
const signedOutScreens: Screen[] = [
  {
    name: 'login',
    path: '/#/login',
    ready: (page) => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible(),
  },
  {
    name: 'register',
    path: '/#/register',
    ready: async (page) => {
      // The checklist's unmet items, as someone starts typing.
      await input(page, 'Password').fill('short');
      await expect(page.getByText(/At least 8 characters/)).toBeVisible();
    },
  },
  {
    name: 'forgot-password',
    path: '/#/forgot-password',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    name: 'reset-password-invalid',
    path: '/#/reset-password',
    ready: (page) =>
      expect(page.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible(),
  },
  {
    name: 'resend-verification',
    path: '/#/resend-verification',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    name: 'verify-email-failed',
    path: '/#/verify-email?token=not-a-token',
    ready: (page) => expect(page.getByRole('alert').first()).toBeVisible(),
  },
];
const signedInScreens: Screen[] = [
  {
    name: 'profile',
    path: '/#/profile',
    ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible(),
  },
  ...(['password', 'security', 'github', 'preferences'] as const).map((tab) => ({
    name: `settings-${tab}`,
    path: `/#/settings?tab=${tab}`,
    ready: async (page: Page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      await expect(page.getByRole('tabpanel')).toBeVisible();
      if (tab === 'github') await expect(page.getByText('Not configured').first()).toBeVisible();
    },
  })),
  {
    name: 'admin-denied',
    path: '/#/admin',
    ready: (page) => expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible(),
  },
  {
    name: 'unknown-route',
    path: '/#/no/such/screen',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
];

for (const { width, scheme } of screenModes()) {
  test(`the account screens at ${width} px in ${scheme} mode: screenshots and axe`, async ({
    browser,
    request,
    extraHTTPHeaders,
  }, testInfo) => {
    // Twenty-odd screens, each checked by axe: a minute on a quiet machine is not one on a busy one.
    test.setTimeout(180_000);
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      extraHTTPHeaders,
      viewport: { width, height: 900 },
      colorScheme: scheme,
    });
    const page = await context.newPage();
    const walk = (screens: Screen[]) =>
      walkScreens(page, screens, { width, scheme, dir: SCREENSHOT_DIR, settleMs: 0 });
    await walk(signedOutScreens);

    // Signed in through the API (the sign-in screen is the journey's), stored as the app does.
    const account = newAccount('screens');
    await createVerifiedAccount(request, account);
    await storeApiSession(request, context, account);
    // The app reads the stored session when it starts.
    await page.reload();
    await walk(signedInScreens);
    await context.close();
  });
}
