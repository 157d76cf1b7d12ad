import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { input } from './helpers/accounts.ts';
import {
  axeMode,
  checkAccessibility,
  expectNoSidewaysOverflow,
  type ScreenMode,
  screenModes,
  walkScreens,
} from './helpers/axe.ts';
import { CONTROL_URL, tokenOf, waitForLink } from './helpers/mail.ts';

/**
 * Single sign-on through a real OpenID provider's own pages (oidc-provider, started by
 * e2e/serve-sso.ts with two more instances of the app): a first sign-in that creates an account
 * and makes it an admin by its provider group, a declined consent shown on the sign-in screen
 * and in the admin's Sign-in section, sign-out that ends the provider's session too, linking an
 * existing account with its password, the automatic redirect (and `?local=1` past it), and a
 * provider that is down. Each screen of ours is checked by axe at 1280 px light and 375 px dark;
 * the provider's pages are its own.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const BUTTON = 'Sign in with Example ID';

interface SsoWorld {
  url: string;
  downUrl: string;
  issuer: string;
  adminGroup: string;
}

let world: SsoWorld;

test.beforeAll(async ({ request }) => {
  world = (await (await request.get(`${CONTROL_URL}/sso`)).json()) as SsoWorld;
});

function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1000)}`;
}

/** An account at the provider, by the login typed into its sign-in page. */
async function providerAccount(
  request: APIRequestContext,
  login: string,
  claims: { email: string; preferred_username?: string; groups?: string[] },
): Promise<void> {
  const response = await request.post(`${CONTROL_URL}/sso/accounts`, {
    data: { login, email_verified: true, given_name: 'Ada', family_name: 'Byron', ...claims },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** A context of the given width and scheme, its pages opening on the single sign-on instance. */
async function newContext(
  browser: Browser,
  { width, scheme }: ScreenMode,
  extraHTTPHeaders: Record<string, string>,
) {
  return browser.newContext({
    baseURL: world.url,
    viewport: { width, height: 900 },
    colorScheme: scheme,
    extraHTTPHeaders,
  });
}

/** The provider's own sign-in page: any password is taken for a known login. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${world.issuer}/interaction/`));
  await expect(page.getByRole('heading', { name: 'Sign-in' })).toBeVisible();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await expect(page.getByRole('heading', { name: 'Authorize' })).toBeVisible();
}

/** Signed in on the single sign-on instance: its home screen, as the account with `email`. */
async function expectSignedIn(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${world.url}/#/home`));
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible();
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(user).toMatchObject({ email });
}

async function signOut(page: Page, email: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('button', { name: new RegExp(email.replaceAll('.', '\\.')) })
    .click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
}

/** An item of the profile's Sign-in Methods list, by its title. */
function methodItem(page: Page, title: 'Password' | 'Single sign-on') {
  return page.getByRole('listitem').filter({ has: page.getByText(title, { exact: true }) });
}

function screenshot(page: Page, name: string, { width, scheme }: ScreenMode) {
  return page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-${width}-${scheme}.png`, fullPage: true });
}

async function check(page: Page, name: string, mode: ScreenMode): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', mode.scheme);
  await expectNoSidewaysOverflow(page, name);
  await screenshot(page, name, mode);
  if (axeMode(mode.width, mode.scheme))
    await checkAccessibility(page, `${name} ${mode.width}px ${mode.scheme}`);
}

test.describe.configure({ mode: 'serial' });

test('a first sign-in through the provider: declined, then an admin by its group, then signed out at the provider', async ({
  browser,
  request,
  extraHTTPHeaders,
}) => {
  const login = unique('ada');
  const username = `ada_${login.slice(3)}`;
  const email = `${login}@example.org`;
  await providerAccount(request, login, { email, preferred_username: username, groups: [world.adminGroup] });
  const [first = { width: 1280, scheme: 'light' as const }] = screenModes();
  const context = await newContext(browser, first, extraHTTPHeaders ?? {});
  const page = await context.newPage();
  try {
    // The sign-in screen goes straight to the provider; consent declined comes back as a message.
    await page.goto('/#/login');
    await signInAtProvider(page, login);
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await expect(page).toHaveURL(new RegExp(`^${world.url}/#/login\\?oidc_error=`));
    const failed = page.getByRole('alert').filter({ hasText: 'Single sign-on did not complete' });
    await expect(failed).toBeVisible();
    // No second automatic redirect: the message stays, with the provider's button to try again.
    await page.waitForTimeout(500);
    await expect(page).toHaveURL(/oidc_error=/);
    await check(page, 'sso-declined', first);

    // Again, consenting: a new account, named from preferred_username, an admin by its group.
    await page.getByRole('link', { name: BUTTON }).click();
    await expect(page.getByRole('heading', { name: 'Authorize' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectSignedIn(page, email);
    await page.goto('/#/admin?tab=users');
    await page.getByLabel('Search users').fill(username);
    const row = page.getByRole('row', { name: new RegExp(username) });
    await expect(row.getByLabel('Sign-in methods: SSO')).toBeVisible();
    const adminSwitch = row.getByRole('switch', { name: `Admin: ${username}` });
    await expect(adminSwitch).toBeChecked();
    await expect(adminSwitch).toBeDisabled();

    // The admin's Sign-in section: the discovered provider and the declined consent.
    await page.goto('/#/admin?tab=sign-in');
    await expect(page.getByText('Discovered', { exact: true })).toBeVisible();
    await expect(page.getByText(`${world.issuer}/auth`, { exact: true })).toBeVisible();
    // The declined consent is a row of the table (a missing table would fail, not count 0).
    await expect(
      page
        .getByRole('table', { name: 'Recent failed sign-ins' })
        .getByRole('row')
        .filter({ hasText: 'access_denied' })
        .first(),
    ).toBeVisible();

    // Profile and the Sign-in section in each mode the journeys check.
    for (const mode of screenModes()) {
      await page.setViewportSize({ width: mode.width, height: 900 });
      await page.emulateMedia({ colorScheme: mode.scheme });
      await walkScreens(
        page,
        [
          {
            name: 'sso-profile',
            path: `${world.url}/#/profile`,
            ready: async (screen) => {
              const card = methodItem(screen, 'Single sign-on');
              await expect(card).toContainText(email);
              await expect(screen.getByText('This account signs in with single sign-on only.')).toBeVisible();
            },
          },
          {
            name: 'sso-admin-sign-in',
            path: `${world.url}/#/admin?tab=sign-in`,
            ready: async (screen) => {
              await expect(screen.getByText('Discovered', { exact: true })).toBeVisible();
              await expect(screen.getByText('access_denied').first()).toBeVisible();
            },
          },
        ],
        { ...mode, dir: SCREENSHOT_DIR },
      );
    }

    await page.setViewportSize({ width: 1280, height: 900 });
    // Sign-out ends the provider's session too: its own page asks, then sends the browser back.
    await signOut(page, email);
    await expect(page).toHaveURL(new RegExp(`^${world.issuer}/session/end`));
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(page).toHaveURL(new RegExp(`^${world.url}/`));
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    // The next sign-in asks for the provider's password again.
    await page.goto('/#/login');
    await expect(page).toHaveURL(new RegExp(`^${world.issuer}/interaction/`));
    await expect(page.locator('input[name="login"]')).toBeVisible();
  } finally {
    await context.close();
  }
});

for (const mode of screenModes()) {
  test(`linking an existing account with its password at ${mode.width} px in ${mode.scheme} mode`, async ({
    browser,
    request,
    extraHTTPHeaders,
  }) => {
    const login = unique('pat');
    const account = {
      username: `pat_${login.slice(3)}`,
      email: `${login}@example.com`,
      first_name: 'Pat',
      last_name: 'Password',
      password: 'Link1Passw0rdE2e',
    };
    const registered = await request.post(`${world.url}/auth/register`, { data: account });
    expect(registered.status(), await registered.text()).toBe(201);
    const link = await waitForLink(request, account.email, 'verify-email');
    const verified = await request.post(`${world.url}/auth/verify-email`, { data: { token: tokenOf(link) } });
    expect(verified.ok(), await verified.text()).toBe(true);
    // The provider knows the same e-mail, with another username: never a takeover.
    await providerAccount(request, login, {
      email: account.email,
      preferred_username: `someone_${login.slice(3)}`,
    });

    const context = await newContext(browser, mode, extraHTTPHeaders ?? {});
    const page = await context.newPage();
    try {
      // `?local=1` shows the form despite the automatic redirect, with the provider's button above it.
      await page.goto('/#/login?local=1');
      await expect(page.getByRole('link', { name: BUTTON })).toBeVisible();
      await expect(input(page, 'Email or Username')).toBeVisible();
      await check(page, 'sso-sign-in-local', mode);

      await page.getByRole('link', { name: BUTTON }).click();
      await signInAtProvider(page, login);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(new RegExp(`^${world.url}/#/login\\?oidc_link=`));
      await expect(page.getByRole('heading', { name: 'Link Your Account' })).toBeVisible();
      await expect(page.getByText(account.email)).toBeVisible();
      await check(page, 'sso-link-account', mode);

      // A wrong password links nothing and says so; the right one links and signs in.
      await input(page, 'Password').fill('Not-the-password-1');
      await page.getByRole('button', { name: 'Link and Sign In' }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await expect(input(page, 'Password')).toHaveValue('');
      await input(page, 'Password').fill(account.password);
      await page.getByRole('button', { name: 'Link and Sign In' }).click();
      await expectSignedIn(page, account.email);

      // Not in the admin group: a member, with both ways to sign in.
      await page.goto('/#/profile');
      await expect(methodItem(page, 'Single sign-on')).toContainText(account.email);
      await expect(methodItem(page, 'Password').getByText('Set', { exact: true })).toBeVisible();
      const admin = await page.request.get(`${world.url}/auth/admin/users`, {
        headers: {
          authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('access_token'))}`,
        },
      });
      expect(admin.status()).toBe(403);
    } finally {
      await context.close();
    }
  });

  test(`a provider that is down at ${mode.width} px in ${mode.scheme} mode: a clear message, no loop`, async ({
    browser,
    extraHTTPHeaders,
  }) => {
    const context = await browser.newContext({
      baseURL: world.downUrl,
      viewport: { width: mode.width, height: 900 },
      colorScheme: mode.scheme,
      extraHTTPHeaders: extraHTTPHeaders ?? {},
    });
    const page = await context.newPage();
    try {
      await page.goto('/#/login');
      await expect(page).toHaveURL(new RegExp(`^${world.downUrl}/#/login\\?oidc_error=provider_unavailable`));
      await expect(
        page.getByRole('alert').filter({ hasText: 'Single sign-on did not complete' }),
      ).toBeVisible();
      await page.waitForTimeout(500);
      await expect(page).toHaveURL(/oidc_error=provider_unavailable/);
      // The password form is still there for the accounts that have one.
      await expect(input(page, 'Email or Username')).toBeVisible();
      await check(page, 'sso-provider-down', mode);
    } finally {
      await context.close();
    }
  });
}
