import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  type Account,
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  signIn,
} from './helpers/accounts.ts';
import { checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';
import { routeId } from './helpers/double.ts';

/**
 * The star-history journey (issue 13): a member with a GitHub token adds a repository created
 * years ago; the engine backfills its star history from the double in the background (the e2e
 * server keeps HISTORY_BACKFILL on), the detail chart fills in, and the member switches ranges
 * and series. The history screen at 1280 and 375 px, light and dark, screenshotted and checked
 * with axe-core.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/history-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });
/** Created in 2012 in the double: weekly points for years, then a daily year. */
const REPOSITORY = 'tailwindlabs/tailwindcss';

test.describe.configure({ mode: 'serial' });

let account: Account;
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  account = newAccount('history');
  await createVerifiedAccount(request, account);
  // The star history is read with a token only: the member's own (the double takes any).
  const login = await request.post('/auth/login', {
    data: { email_or_username: account.username, password: account.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = {
    authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
  };
  const token = await request.put('/auth/me/github-token', {
    headers,
    data: { token: 'ghp_historyJourneyToken0001' },
  });
  expect(token.ok(), await token.text()).toBe(true);
  const added = await request.post('/repositories/', { headers, data: { id: REPOSITORY } });
  expect([201, 409], await added.text()).toContain(added.status());
  context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  page = await context.newPage();
  await signIn(page, account.username, account.password);
  await expect(page).toHaveURL(/#\/home$/);
});

test.afterAll(async () => {
  await context?.close();
});

const historyRows = async () =>
  await page
    .getByRole('table', { name: 'Stars, forks, issues and health per day', includeHidden: true })
    .locator('tbody tr')
    .count();

async function openHistory() {
  await page.goto(`/#/repo/${routeId(REPOSITORY)}?tab=history`);
  await expect(page.getByRole('heading', { level: 1, name: 'tailwindcss' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
}

test('the star history is backfilled after the add, and its ranges switch', async () => {
  test.setTimeout(60_000);
  await openHistory();
  // The engine's lowest-priority work: it starts once the add has been quiet for a moment.
  await expect(page.getByText(/Full star history loaded from GitHub/)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.recharts-surface').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/stars this week$/)).toBeVisible();

  const all = await historyRows();
  // Years of weekly points before a daily year.
  expect(all).toBeGreaterThan(365 + 52 * 5);
  await page.getByText('30 days', { exact: true }).click();
  await expect.poll(historyRows).toBe(30);
  await expect(page.getByText(/stars in the last 30 days$/)).toBeVisible();
  await page.getByText('90 days', { exact: true }).click();
  await expect.poll(historyRows).toBe(90);
  await page.getByText('1 year', { exact: true }).click();
  await expect.poll(historyRows).toBe(365);
  await page.getByText('All', { exact: true }).click();
  await expect.poll(historyRows).toBe(all);

  // Series: issues on, stars off.
  const series = page.getByRole('group', { name: 'Series' });
  await series.getByText('Issues', { exact: true }).click();
  await expect(series.getByRole('checkbox', { name: 'Issues' })).toBeChecked();
  await series.getByText('Stars', { exact: true }).click();
  await expect(series.getByRole('checkbox', { name: 'Stars' })).not.toBeChecked();
  await series.getByText('Stars', { exact: true }).click();

  // Backfill again: queued, then done again.
  await page.getByRole('button', { name: 'Backfill history' }).click();
  await expect(page.getByText(/will be loaded from GitHub shortly/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Backfill history' })).toBeEnabled({ timeout: 30_000 });
  await expect(page.getByText(/Full star history loaded from GitHub/)).toBeVisible();
});

for (const { width, scheme } of screenModes()) {
  test(`the history at ${width} px in ${scheme} mode: screenshot and axe`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await openHistory();
    await expect(page.getByText(/Full star history loaded from GitHub/)).toBeVisible();
    await page.getByText('1 year', { exact: true }).click();
    await expect(page.locator('.recharts-surface').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(page, 'history');
    await page.waitForTimeout(400);
    await page
      .locator('[data-section="star-history"]')
      .screenshot({ path: `${SCREENSHOT_DIR}/history-${width}-${scheme}.png` });
    // This section's own content (the rest of the detail page is repositories.spec.ts's).
    await checkAccessibility(page, `history ${width}px ${scheme}`, '[data-section="star-history"]');
  });
}
