import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { tokenOf, waitForLink } from './mail.ts';

export interface Account {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  password: string;
}

/** Unique per run: the e2e instance is shared by every spec file. */
export function newAccount(prefix: string, password = 'Journey1Passw0rd'): Account {
  const suffix = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1000)}`;
  return {
    username: `${prefix}_${suffix}`,
    email: `${prefix}-${suffix}@example.com`,
    first_name: 'Ada',
    last_name: 'Lovelace',
    password,
  };
}

/**
 * The first account of an empty instance becomes an admin without verification
 * (docs/product.md#accounts-and-sessions). Registering a throwaway one first makes sure the journey's own
 * account is an ordinary one that goes through the e-mail link (harmless when another spec already took the
 * first slot).
 */
export async function registerThrowawayFirstAccount(request: APIRequestContext): Promise<void> {
  const account = newAccount('first');
  const { password, ...rest } = account;
  await request.post('/auth/register', { data: { ...rest, password } });
}

/** Registers and verifies through the API: for journeys that start signed out with an account. */
export async function createVerifiedAccount(request: APIRequestContext, account: Account): Promise<void> {
  const response = await request.post('/auth/register', { data: account });
  expect(response.status(), await response.text()).toBe(201);
  const link = await waitForLink(request, account.email, 'verify-email').catch(() => null);
  // The instance's first account is verified at once and gets no mail.
  if (link === null) return;
  const verified = await request.post('/auth/verify-email', { data: { token: tokenOf(link) } });
  expect(verified.ok(), await verified.text()).toBe(true);
}

/** An input by the start of its label ('Password' also matches 'Password *'), never its toggle button. */
export function input(page: Page, label: string): Locator {
  return page.locator('input').and(page.getByLabel(new RegExp(`^${label}`)));
}

export async function signIn(page: Page, login: string, password: string, remember = false): Promise<void> {
  await page.goto('/#/login');
  await input(page, 'Email or Username').fill(login);
  await input(page, 'Password').fill(password);
  if (remember) await page.getByRole('checkbox', { name: 'Remember me for 24 hours' }).check();
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Opens the sidebar's user menu and picks an item (Profile, Settings, Sign Out). */
export async function openUserMenuItem(page: Page, name: string, item: 'Profile' | 'Settings' | 'Sign Out') {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/**
 * Signs `account` in through the API and stores the session as the app does, for `context`'s
 * pages from their next load (sign-ins through the form are the auth journey's; the form is
 * rate limited per address).
 */
export async function storeApiSession(
  request: APIRequestContext,
  context: BrowserContext,
  account: Pick<Account, 'username' | 'password'>,
): Promise<void> {
  const session = await request.post('/auth/login', {
    data: { email_or_username: account.username, password: account.password },
  });
  expect(session.ok(), await session.text()).toBe(true);
  const tokens = (await session.json()) as { access_token: string; refresh_token: string; user: unknown };
  await context.addInitScript((stored) => {
    if (localStorage.getItem('access_token')) return;
    localStorage.setItem('access_token', stored.access_token);
    localStorage.setItem('refresh_token', stored.refresh_token);
    localStorage.setItem('user', JSON.stringify(stored.user));
  }, tokens);
}
