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
import { type Screen, screenModes, walkScreens } from './helpers/axe.ts';
import { routeId, steerDouble } from './helpers/double.ts';

/**
 * The activity journey (issue 13, docs/product.md#activity): add three repositories, let GitHub
 * (the double) move a year on, update them, and read what changed on the Activity screen (type
 * and tag filters) and on a repository's page; make the Atom feed's address in Settings and read
 * it. Then the screens at 1280 and 375 px in light and dark, screenshotted and checked with axe.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/activity-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

const TAG = 'activity-e2e';
/** Unarchived a year later; new description and a topic less; 50k and 100k stars crossed. */
const NAMES = ['discord/manifold', 'vinta/awesome-python', 'openai/codex'];

test.describe.configure({ mode: 'serial' });

let account: Account;
let page: Page;
let context: BrowserContext;

test.beforeAll(async ({ browser, request }, testInfo) => {
  await steerDouble(request, 'reset');
  await registerThrowawayFirstAccount(request);
  account = newAccount('activity');
  await createVerifiedAccount(request, account);
  context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  page = await context.newPage();
  await signIn(page, account.username, account.password);
  await expect(page).toHaveURL(/#\/home$/);
});

test.afterAll(async ({ request }) => {
  await context?.close();
  await steerDouble(request, 'reset');
});

const events = () => page.getByRole('list', { name: 'Events' });

test('the activity journey', async ({ request }) => {
  test.setTimeout(120_000);

  // ---- add three repositories under one tag -----------------------------------------------------
  await page.goto('/#/add');
  await page.getByRole('textbox', { name: 'Repositories' }).fill(NAMES.join('\n'));
  const tags = page.getByRole('combobox', { name: 'Tags for every repository' });
  await tags.fill(TAG);
  await tags.press('Enter');
  await page.getByRole('main').getByRole('button', { name: 'Add Repositories' }).click();
  await expect(page.getByText('✅ Successfully added 3 repositories!')).toBeVisible({ timeout: 30_000 });

  // The sidebar leads to the Activity screen: three additions, by this member.
  await page.getByRole('navigation').getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/#\/activity$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  for (const name of NAMES)
    await expect(events()).toContainText(
      `${name} was added to the catalogue by ${account.first_name} ${account.last_name}`,
    );

  // ---- GitHub moves a year on; update each repository from its page ------------------------------
  await steerDouble(request, 'snapshot', { snapshot: '2026-08-22' });
  for (const name of NAMES) {
    await page.goto(`/#/repo/${routeId(name)}`);
    const updated = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().includes('/repositories/'),
    );
    await page.getByRole('button', { name: 'Update from GitHub' }).click();
    expect((await updated).status()).toBe(200);
  }

  // The page of the last one shows its own recent activity, in its Activity tab.
  await page.getByRole('tab', { name: 'Activity' }).click();
  const recent = page.getByRole('region', { name: 'Recent activity' });
  // One sync crossed both milestones: one row (issue 23 item 8), each milestone a click away.
  await expect(recent.getByRole('listitem').first()).toContainText('openai/codex passed 50k and 100k stars');
  await recent.getByRole('button', { name: 'Show each milestone (2)' }).click();
  await expect(recent).toContainText('openai/codex passed 50k stars');
  await expect(recent).toContainText('openai/codex passed 100k stars');
  await expect(recent).toContainText('was added to the catalogue');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-detail-activity.png`, fullPage: true });
  await recent.getByRole('link', { name: 'See all activity' }).click();
  await expect(page).toHaveURL(/#\/activity\?repository=openai%2Fcodex$/);
  await expect(events().getByRole('listitem')).toHaveCount(2);

  // ---- the whole feed, then filtered ---------------------------------------------------------------
  await page.goto('/#/activity');
  await expect(events()).toContainText('discord/manifold is no longer archived');
  await expect(events()).toContainText('vinta/awesome-python changed its description');
  await expect(events()).toContainText('vinta/awesome-python removed topic awesome');
  await expect(events()).toContainText('openai/codex passed 50k and 100k stars');

  await page.getByRole('combobox', { name: 'Event types' }).click();
  await page.getByRole('option', { name: 'Star milestone' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/type=star_milestone/);
  await expect(events().getByRole('listitem')).toHaveCount(1);
  await expect(events()).not.toContainText('was added');

  await page.goto(`/#/activity?tag=${TAG}&type=unarchived`);
  await expect(events().getByRole('listitem')).toHaveCount(1);
  await expect(events()).toContainText('discord/manifold is no longer archived');
  await page.goto('/#/activity?tag=no-such-tag');
  await expect(page.getByRole('heading', { name: 'No events match these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(events()).toContainText('openai/codex passed 50k and 100k stars');

  // ---- the Atom feed: its address is made in Settings and read by a feed reader --------------------
  await page.goto('/#/settings?tab=notifications');
  await page.getByRole('button', { name: 'Create feed address' }).click();
  const address = page.getByRole('textbox', { name: 'Your feed address' });
  await expect(address).toHaveValue(/\/feeds\/activity\.atom\?token=[\w-]{43}$/);
  const feedUrl = new URL(await address.inputValue());
  const feed = await request.get(`${feedUrl.pathname}${feedUrl.search}&tag=${TAG}`);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toContain('application/atom+xml');
  const xml = await feed.text();
  expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  expect(xml).toContain('<title>discord/manifold is no longer archived</title>');
});

/**
 * The screens this feature owns. On pages it shares with other features (the repository page,
 * Settings) axe checks this feature's card only; the rest is those features' own journeys' job.
 */
const screens: Screen[] = [
  {
    name: 'activity',
    path: '/#/activity',
    ready: async (page) => {
      await expect(page.getByRole('list', { name: 'Events' })).toContainText(
        'openai/codex passed 50k and 100k stars',
      );
    },
  },
  {
    name: 'activity-empty',
    path: '/#/activity?tag=no-such-tag',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'No events match these filters' })).toBeVisible();
    },
  },
  {
    name: 'repository-activity',
    path: `/#/repo/${routeId('vinta/awesome-python')}?tab=activity`,
    scope: 'section[aria-labelledby^="repository-events-"]',
    ready: async (page) => {
      await expect(page.getByRole('region', { name: 'Recent activity' })).toContainText(
        'changed its description',
      );
    },
  },
  {
    name: 'settings-feed',
    path: '/#/settings?tab=notifications',
    scope: '[data-feed-token-card]',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Activity feed' })).toBeVisible();
      await expect(page.getByText(/^Created /)).toBeVisible();
    },
  },
];

for (const { width, scheme } of screenModes()) {
  test(`activity screens at ${width} px in ${scheme} mode: screenshots and axe`, async () => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await walkScreens(page, screens, { width, scheme, dir: SCREENSHOT_DIR });
  });
}
