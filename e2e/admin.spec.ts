import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { axeMode, checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';

/**
 * The admin journey: every dashboard tab, the user toggles, backups (create, automatic,
 * download, delete) and the denial a member sees. The e2e instance is shared by every spec
 * file, so this one registers its own users; its admin is a member promoted through the API by
 * the instance's administrator (registered first by e2e/serve.ts).
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';
const port = Number(process.env.E2E_PORT ?? 4173);
const control = `http://127.0.0.1:${port + 1}`;

const suffix = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1000)}`;
const PASSWORD = 'Adm1nPassw0rd';
const adminAccount = { username: `adm_${suffix}`, email: `adm-${suffix}@example.com` };
const memberAccount = { username: `mem_${suffix}`, email: `mem-${suffix}@example.com` };

async function register(request: APIRequestContext, account: { username: string; email: string }) {
  const response = await request.post('/auth/register', {
    data: { ...account, first_name: 'Admin', last_name: 'Journey', password: PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { message: string }).message;
}

/** Follows the verification link the SMTP sink received. */
async function verifyByMail(request: APIRequestContext, email: string) {
  await expect
    .poll(async () => {
      const mails = (await (
        await request.get(`${control}/mails?to=${encodeURIComponent(email)}`)
      ).json()) as {
        link: string | null;
      }[];
      return mails.find((mail) => mail.link?.includes('verify-email'))?.link ?? null;
    })
    .not.toBeNull();
  const mails = (await (await request.get(`${control}/mails?to=${encodeURIComponent(email)}`)).json()) as {
    link: string;
  }[];
  const link = mails.find((mail) => mail.link?.includes('verify-email'))?.link ?? '';
  const token = new URL(link.replace('/#/', '/')).searchParams.get('token');
  const response = await request.post('/auth/verify-email', { data: { token } });
  expect(response.ok()).toBe(true);
}

/** Promotes our account through the API, signed in as the instance's administrator (e2e/serve.ts). */
async function promoteWithApi(request: APIRequestContext, username: string) {
  const admin = (await (await request.get(`${control}/admin`)).json()) as { email: string; password: string };
  const session = await request.post('/auth/login', {
    data: { email_or_username: admin.email, password: admin.password },
  });
  expect(session.ok(), await session.text()).toBe(true);
  const headers = {
    authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}`,
  };
  const users = (await (await request.get(`/auth/admin/users?search=${username}`, { headers })).json()) as {
    users: { id: number; username: string }[];
  };
  const target = users.users.find((user) => user.username === username);
  expect(target).toBeDefined();
  const promoted = await request.patch(`/auth/admin/users/${target?.id}`, {
    headers,
    data: { is_admin: true },
  });
  expect(promoted.ok(), await promoted.text()).toBe(true);
}

async function signIn(page: Page, login: string) {
  await page.goto('/#/login');
  await page.getByLabel('Email or Username').fill(login);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/#\/home/);
}

async function openTab(page: Page, name: string, tab: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page).toHaveURL(new RegExp(`#/admin\\?tab=${tab}$`));
}

test.describe.configure({ mode: 'serial' });

/**
 * The admin's signed-in browser storage, reused by the later tests: sign-ins are limited per
 * client address (10 per 15 minutes) and every spec file shares 127.0.0.1.
 */
let adminState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

test.beforeAll(async ({ request }) => {
  const message = await register(request, adminAccount);
  if (!message.includes('administrator')) {
    await verifyByMail(request, adminAccount.email);
    await promoteWithApi(request, adminAccount.username);
  }
  await register(request, memberAccount);
  await verifyByMail(request, memberAccount.email);
});

test('an admin goes through every tab of the dashboard', async ({ page, context }) => {
  await signIn(page, adminAccount.username);
  adminState = await context.storageState();

  // The sidebar's Administration items lead to the dashboard tabs.
  await page.getByRole('button', { name: new RegExp(adminAccount.email) }).click();
  await page.getByRole('menuitem', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/#\/admin\?tab=overview$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Total users: \d+$/ })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Total repositories: \d+$/ })).toBeVisible();
  const adminsBefore = await page.getByRole('group', { name: /^Admins: \d+$/ }).getAttribute('aria-label');

  // Users: find the member, flip verified off and on, make them admin and back.
  await openTab(page, 'Users', 'users');
  await page.getByLabel('Search users').fill(memberAccount.username);
  const row = page.getByRole('row', { name: new RegExp(memberAccount.username) });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);
  const verified = row.getByRole('switch', { name: `Verified: ${memberAccount.username}` });
  await expect(verified).toBeChecked();
  await verified.click({ force: true });
  await expect(row.getByText('Unverified')).toBeVisible();
  await expect(verified).not.toBeChecked();
  await verified.click({ force: true });
  await expect(row.getByText('Verified', { exact: true }).first()).toBeVisible();
  await expect(verified).toBeChecked();

  const adminSwitch = row.getByRole('switch', { name: `Admin: ${memberAccount.username}` });
  await adminSwitch.click({ force: true });
  await expect(adminSwitch).toBeChecked();
  await expect(row.getByText('Admin', { exact: true }).first()).toBeVisible();
  // The overview's admin count followed the change.
  await openTab(page, 'Overview', 'overview');
  await expect(page.getByRole('group', { name: /^Admins: \d+$/ })).not.toHaveAttribute(
    'aria-label',
    adminsBefore ?? '',
  );
  await openTab(page, 'Users', 'users');
  await page.getByLabel('Search users').fill(memberAccount.username);
  await row.getByRole('switch', { name: `Admin: ${memberAccount.username}` }).click({ force: true });
  await expect(row.getByRole('switch', { name: `Admin: ${memberAccount.username}` })).not.toBeChecked();

  // One's own row can't be deactivated or demoted.
  await page.getByLabel('Search users').fill(adminAccount.username);
  await expect(page.getByRole('switch', { name: `Admin: ${adminAccount.username}` })).toBeDisabled();
  await expect(page.getByRole('switch', { name: `Active: ${adminAccount.username}` })).toBeDisabled();

  // Repositories: counts, every repository a page at a time (never the whole catalogue), and the tools to come.
  const adminLists: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/auth/admin/repositories') adminLists.push(url);
  });
  await openTab(page, 'Repositories', 'repositories');
  await expect(page.getByRole('group', { name: /^Users with repos: \d+$/ })).toBeVisible();
  // The catalogue may still be empty when this file runs first.
  await expect(page.getByText(/^Showing \d+ of \d+ repositories$/)).toBeVisible();
  expect(adminLists.length).toBeGreaterThan(0);
  for (const url of adminLists) expect(url.searchParams.get('limit')).toBe('50');
  await expect(page.getByText('Coming Soon').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sync all repositories' })).toBeDisabled();

  // Database: manual and automatic backups, download and delete.
  await openTab(page, 'Database', 'database');
  await page.getByRole('button', { name: 'Create Backup' }).click();
  await expect(page.getByText(/^✅ Backup created: backup-manual-.*\.jsonl\.gz$/)).toBeVisible();
  const manualName = ((await page.getByText(/^✅ Backup created: /).textContent()) ?? '').replace(
    '✅ Backup created: ',
    '',
  );
  await page.getByRole('button', { name: 'Run Automatic Backup' }).click();
  await expect(page.getByText(/^✅ Automatic backup created: backup-auto-/)).toBeVisible();
  const backupsTable = page.getByRole('table', { name: 'Backups' });
  await expect(
    backupsTable.getByRole('row', { name: new RegExp(manualName.replaceAll('.', '\\.')) }),
  ).toBeVisible();
  await expect(backupsTable.getByText(/^\d+(\.\d+)? (B|KB|MB)$/).first()).toBeVisible();

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${manualName}` }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(manualName);

  await page.getByRole('button', { name: `Delete ${manualName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this backup?' });
  await expect(dialog).toContainText(manualName);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`✅ Backup ${manualName} deleted.`)).toBeVisible();
  await expect(
    backupsTable.getByRole('row', { name: new RegExp(manualName.replaceAll('.', '\\.')) }),
  ).toHaveCount(0);

  // Settings: the placeholder.
  await openTab(page, 'Settings', 'settings');
  await expect(page.getByRole('heading', { name: 'System Settings' })).toBeVisible();
  await expect(page.getByText('Coming Soon')).toBeVisible();

  // The query string opens a tab directly, and back goes to the previous one.
  await page.goto('/#/admin?tab=users');
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
});

test('a member sees the denial and goes home', async ({ page }) => {
  await signIn(page, memberAccount.email);
  await page.goto('/#/admin?tab=users');
  await expect(page.getByText('Access denied. Admin privileges required.')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/#\/home$/);
});

for (const { width, scheme } of screenModes()) {
  test(`the admin screens at ${width} px in ${scheme} mode`, async ({ browser }) => {
    const context = await browser.newContext({
      storageState: adminState,
      viewport: { width, height: 900 },
      colorScheme: scheme,
    });
    const page = await context.newPage();
    for (const tab of [
      'overview',
      'users',
      'repositories',
      'database',
      'settings',
      'public-pages',
      'sign-in',
    ]) {
      await page.goto(`/#/admin?tab=${tab}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
      await expect(page.getByRole('tab', { selected: true })).toBeVisible();
      if (tab === 'overview') await expect(page.getByRole('group', { name: /^Total users/ })).toBeVisible();
      // Phones get one card per user instead of the table.
      if (tab === 'users') {
        await expect(page.getByRole(width > 768 ? 'table' : 'list', { name: 'Users' })).toBeVisible();
      }
      if (tab === 'database') await expect(page.getByRole('button', { name: 'Create Backup' })).toBeVisible();
      // Wide tables scroll inside their own box; the page itself never scrolls sideways.
      await expectNoSidewaysOverflow(page, tab);
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/admin-${tab}-${width}-${scheme}.png`,
        fullPage: true,
      });
      if (axeMode(width, scheme)) await checkAccessibility(page, `admin ${tab} ${width}px ${scheme}`);
    }
    await context.close();
  });
}
