import { mkdirSync, readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expect, test } from './fixtures.ts';
import {
  type Account,
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  signIn,
  storeApiSession,
} from './helpers/accounts.ts';
import { type Screen, screenModes, walkScreens } from './helpers/axe.ts';
import { routeId } from './helpers/double.ts';
import { CONTROL_URL } from './helpers/mail.ts';

/**
 * The list as a workspace (issue 14, docs/product.md#repository-list): filters and their chips,
 * the whole header cell sorting, sort on a phone, saved views (private and shared, in the
 * sidebar, read-only for another member), bulk actions with per-item results, undo for a
 * deletion (from the selection and from a repository's page) and the keyboard shortcuts. Then
 * the workspace's screens at 1280 and 375 px in light and dark, screenshotted and checked with axe.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/workspace-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** e2e/serve.ts's seed: `{prefix}{n % 97}/repo-{n}`, stars (n × 7919) mod 250,000, licences in turn. */
const seeded = (prefix: string, n: number) => ({
  id: `${prefix}${n % 97}/repo-${n}`,
  stars: (n * 7919) % 250_000,
  license: ['MIT', 'Apache-2.0', '', 'GPL-3.0'][n % 4] ?? '',
});
/** Numbered after the scale journey's 10,000, so the GitHub ids never meet. */
const MINE = [20_000, 20_001, 20_002, 20_003].map((n) => seeded('ws', n));
const THEIRS = [20_004, 20_005].map((n) => seeded('wso', n));
const ALL = [...MINE, ...THEIRS];
/** A search every seeded name matches, and nothing else in the shared instance. */
const SEARCH = 'repo-2000';

let owner: Account;
let other: Account;
let context: BrowserContext;
let page: Page;

async function seed(
  request: APIRequestContext,
  account: Account,
  prefix: string,
  start: number,
  count: number,
) {
  const response = await request.post(
    `${CONTROL_URL}/catalogue/seed?count=${count}&start=${start}&prefix=${prefix}&username=${encodeURIComponent(account.username)}`,
  );
  expect(response.ok(), await response.text()).toBe(true);
}

/** A signed-in page for `account` through the API (sign-ins through the form are the auth journey's). */
async function signedInPage(
  browser: Browser,
  request: APIRequestContext,
  account: Account,
  options: { baseURL?: string; width: number; scheme?: 'light' | 'dark' },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: { width: options.width, height: 900 },
    colorScheme: options.scheme ?? 'light',
    acceptDownloads: true,
  });
  await storeApiSession(request, context, account);
  return { context, page: await context.newPage() };
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const showing = (page: Page, shown: number, total = shown) =>
  page.getByText(`Showing ${shown} of ${total} repositories`);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  owner = newAccount('work');
  other = newAccount('other');
  await createVerifiedAccount(request, owner);
  await createVerifiedAccount(request, other);
  await seed(request, owner, 'ws', 20_000, 4);
  await seed(request, other, 'wso', 20_004, 2);
  context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, acceptDownloads: true });
  page = await context.newPage();
  await signIn(page, owner.username, owner.password);
  await expect(page).toHaveURL(/#\/home$/);
});

test.afterAll(async ({ request }) => {
  await context?.close();
  for (const prefix of ['ws', 'wso']) await request.post(`${CONTROL_URL}/catalogue/clear?prefix=${prefix}`);
});

test('filters with chips, the header sorts, a saved view shared with the team and sorted on a phone', async ({
  browser,
  request,
}, testInfo) => {
  await page.goto('/#/home?added_by=me');
  await expect(showing(page, 4)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Added by me' })).toBeChecked();

  // A licence from the filter menu: a chip, the address, and the server's answer.
  await page.getByRole('button', { name: 'Filters' }).click();
  const filters = page.getByRole('group', { name: 'Filters', exact: true });
  await filters.getByRole('combobox', { name: 'License' }).click();
  await page.getByRole('option', { name: 'GPL-3.0' }).click();
  await page.keyboard.press('Escape');
  await expect(showing(page, 1)).toBeVisible();
  const chips = page.getByRole('group', { name: 'Active filters' });
  await expect(chips).toContainText('License: GPL-3.0');
  await expect(page).toHaveURL(/license=GPL-3\.0/);
  await expect(page.getByRole('button', { name: 'Filters 1 active' })).toBeVisible();
  await chips.getByRole('button', { name: 'Remove filter License: GPL-3.0' }).click();
  await expect(showing(page, 4)).toBeVisible();

  // The whole header cell sorts (not only its label); a row click opens the repository.
  const starsHeader = page.getByRole('columnheader', { name: /Stars/ });
  const box = await starsHeader.boundingBox();
  if (!box) throw new Error('no Stars header');
  await page.mouse.click(box.x + box.width - 4, box.y + box.height - 4);
  await expect(starsHeader).toHaveAttribute('aria-sort', 'descending');
  const byStars = [...MINE].sort((a, b) => b.stars - a.stars);
  await expect(page.locator('tbody tr[data-index="0"]')).toContainText(byStars[0]?.id ?? '');

  // Save it, shared with the team: the sidebar lists it and it opens the same view.
  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Mine by stars');
  await dialog.getByRole('switch', { name: /^Share with the team/ }).check();
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(page.getByText('View “Mine by stars” saved.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'View: Mine by stars' })).toBeVisible();
  const viewLink = sidebar(page).getByRole('link', { name: /Mine by stars/ });
  await expect(viewLink).toHaveAttribute('aria-current', 'page');
  await sidebar(page).getByRole('link', { name: 'Tags' }).click();
  await viewLink.click();
  await expect(page).toHaveURL(/added_by=me/);
  await expect(page).toHaveURL(/sort=stars/);
  await expect(page.locator('tbody tr[data-index="0"]')).toContainText(byStars[0]?.id ?? '');

  // A name already taken is refused in the form.
  await page.goto('/#/home?added_by=me&sort=name&order=asc');
  await page.getByRole('button', { name: 'Save view' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('mine BY stars');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog.getByText(/already/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Another member on a phone: the shared view in the drawer, read-only; the sort control sorts cards.
  const phone = await signedInPage(browser, request, other, {
    baseURL: testInfo.project.use.baseURL,
    width: 375,
  });
  try {
    const theirs = phone.page;
    await theirs.goto('/#/home');
    await theirs.getByRole('button', { name: 'Open navigation' }).click();
    const shared = sidebar(theirs).getByRole('link', { name: /Mine by stars/ });
    await expect(shared).toContainText(`Shared by ${owner.username}`);
    await shared.click();
    // "Added by me" is the viewer's: this member's own two.
    await expect(showing(theirs, 2)).toBeVisible();
    await expect(theirs.getByRole('main').getByText('Mine by stars', { exact: true })).toBeVisible();
    await expect(theirs.getByRole('button', { name: 'View: Mine by stars' })).toHaveCount(0);
    const cards = theirs.getByRole('article');
    const theirsByStars = [...THEIRS].sort((a, b) => b.stars - a.stars);
    await expect(cards.first()).toContainText(theirsByStars[0]?.id ?? '');
    await theirs.getByRole('button', { name: /^Sort ascending/ }).click();
    await expect(cards.first()).toContainText(theirsByStars[1]?.id ?? '');
    await theirs.getByRole('combobox', { name: 'Sort by' }).click();
    await theirs.getByRole('option', { name: 'Name' }).click();
    await expect(theirs).toHaveURL(/sort=name/);
    const theirsByName = [...THEIRS].sort((a, b) => a.id.localeCompare(b.id));
    await expect(cards.first()).toContainText(theirsByName[0]?.id ?? '');
  } finally {
    await phone.context.close();
  }
});

test('bulk actions report per item, and a deletion comes back with Undo', async () => {
  await page.goto(`/#/home?q=${SEARCH}&sort=name&order=asc`);
  await expect(showing(page, ALL.length)).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select every repository shown' }).check();
  const bar = page.getByRole('region', { name: 'Selected repositories' });
  await expect(bar).toContainText(`${ALL.length} selected`);

  // Tags on every selected repository, whoever added it.
  await bar.getByRole('button', { name: 'Add tags' }).click();
  const tagsToAdd = page.getByRole('combobox', { name: 'Tags to add' });
  await tagsToAdd.fill('picked');
  await tagsToAdd.press('Enter');
  await page.getByRole('button', { name: `Add to ${ALL.length}` }).click();
  await expect(page.getByText(`Tags added to ${ALL.length} repositories.`)).toBeVisible();

  // Export the selection: exactly these rows.
  const downloading = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Export' }).click();
  const csv = readFileSync(await (await downloading).path(), 'utf8');
  const records = parse(csv, { columns: true, skip_empty_lines: true, bom: true }) as Record<
    string,
    string
  >[];
  expect(records.map((record) => record.id).sort()).toEqual(ALL.map((repository) => repository.id).sort());
  expect(records.every((record) => Object.values(record).join('|').includes('picked'))).toBe(true);

  // Delete with one confirmation: another member's two are refused, each with the reason.
  await bar.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${ALL.length} repositories?` });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${THEIRS.length} could not be changed`)).toBeVisible();
  for (const repository of THEIRS)
    await expect(
      page.getByText(
        `${repository.id}: Only the member who added this repository or an administrator can delete it.`,
      ),
    ).toBeVisible();
  // A failure report stays until it is dismissed.
  await page
    .getByRole('alert')
    .filter({ hasText: `${THEIRS.length} could not be changed` })
    .getByRole('button', { name: 'Dismiss' })
    .click();
  await expect(page.getByText(`${THEIRS.length} could not be changed`)).toBeHidden();
  const deleted = page.getByText(`${MINE.length} repositories deleted.`);
  await expect(deleted).toBeVisible();
  await expect(showing(page, THEIRS.length)).toBeVisible();

  // Undo: all four back, with the tag they had.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText(`${MINE.length} repositories restored.`)).toBeVisible();
  await expect(showing(page, ALL.length)).toBeVisible();
  await page.goto('/#/home?tags=picked');
  await expect(showing(page, ALL.length)).toBeVisible();

  // From a repository's page: deleted, then back on its page with its tags.
  const first = MINE[0]?.id ?? '';
  await page.goto(`/#/repo/${routeId(first)}`);
  await page.getByRole('button', { name: 'Delete Repository' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this repository?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/#\/home$/);
  await expect(page.getByText(`${first} deleted.`)).toBeVisible();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page).toHaveURL(new RegExp(`#/repo/${routeId(first)}$`));
  await expect(page.getByText(`${first} restored.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: first.split('/')[1] })).toBeVisible();
  await expect(page.getByText('picked', { exact: true }).first()).toBeVisible();
  // Dismissed, so its fading out does not meet the screens' axe run (a half-faded text fails contrast).
  await page
    .getByRole('alert')
    .filter({ hasText: `${first} restored.` })
    .getByRole('button', { name: 'Dismiss' })
    .click();
  await expect(page.getByText(`${first} restored.`)).toBeHidden();
});

test('keyboard: / searches, j and k move, Enter opens, g then h/t/s navigates, ? lists them', async () => {
  await page.goto(`/#/home?q=${SEARCH}&sort=name&order=asc`);
  await expect(showing(page, ALL.length)).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search repositories' });

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  // Typing in a field is typing: g then t stays on the list, and j selects nothing.
  await page.keyboard.type('gtj');
  await expect(search).toHaveValue(`${SEARCH}gtj`);
  await expect(page).toHaveURL(/#\/home/);
  await search.fill(SEARCH);
  await expect(showing(page, ALL.length)).toBeVisible();
  await page.getByRole('heading', { level: 1, name: 'Repositories' }).click();

  const rows = page.locator('tbody tr[data-index]');
  await page.keyboard.press('j');
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(rows.nth(0)).not.toHaveAttribute('aria-selected', 'true');
  const byName = [...ALL].sort((a, b) => a.id.localeCompare(b.id));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/repo/${routeId(byName[1]?.id ?? '')}$`));

  for (const [key, path, heading] of [
    ['t', '/tags', 'Tags'],
    ['s', '/stats', 'Statistics'],
    ['h', '/home', 'Repositories'],
  ] as const) {
    await page.keyboard.press('g');
    await page.keyboard.press(key);
    await expect(page).toHaveURL(new RegExp(`#${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }

  await page.keyboard.press('Shift+Slash');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('table', { name: 'Keyboard shortcuts' })).toContainText('Go to statistics');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

const screens: Screen[] = [
  {
    name: 'workspace-selection',
    path: `/#/home?q=${SEARCH}&sort=name&order=asc`,
    ready: async (page) => {
      await expect(showing(page, ALL.length)).toBeVisible();
      for (const repository of THEIRS)
        await page.getByRole('checkbox', { name: `Select ${repository.id}` }).check();
      await expect(page.getByRole('region', { name: 'Selected repositories' })).toContainText('2 selected');
    },
  },
  {
    name: 'workspace-filters',
    path: '/#/home?added_by=me&license=MIT',
    ready: async (page) => {
      await expect(showing(page, 1)).toBeVisible();
      await page.getByRole('button', { name: /^Filters/ }).click();
      await expect(page.getByRole('group', { name: 'Filters', exact: true })).toBeVisible();
    },
  },
  {
    name: 'workspace-saved-view',
    path: '/#/home?added_by=me&sort=stars&order=desc',
    ready: async (page, width) => {
      await expect(page.getByRole('button', { name: 'View: Mine by stars' })).toBeVisible();
      if (width < 768) {
        await page.getByRole('button', { name: 'Open navigation' }).click();
        await expect(sidebar(page).getByRole('link', { name: /Mine by stars/ })).toBeVisible();
      }
    },
  },
  {
    name: 'workspace-save-dialog',
    path: '/#/home?added_by=me&sort=forks&order=desc',
    ready: async (page) => {
      await page.getByRole('button', { name: 'Save view' }).click();
      await expect(page.getByRole('dialog', { name: 'Save this view' })).toBeVisible();
    },
  },
  {
    name: 'workspace-shortcuts',
    path: '/#/tags',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'Tags' })).toBeVisible();
      await page.keyboard.press('Shift+Slash');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
  {
    name: 'workspace-detail-activity',
    path: `/#/repo/${routeId(MINE[0]?.id ?? '')}?tab=activity`,
    ready: async (page) => {
      await expect(page.getByRole('tab', { name: /^Activity/ })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByRole('tabpanel')).toBeVisible();
    },
  },
];

for (const { width, scheme } of screenModes()) {
  test(`workspace screens at ${width} px in ${scheme} mode: screenshots and axe`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    // The dialogs' and the selection bar's transitions take a little longer; Escape closes what a screen opened.
    await walkScreens(page, screens, {
      width,
      scheme,
      dir: SCREENSHOT_DIR,
      settleMs: 250,
      fullPage: false,
      after: (page) => page.keyboard.press('Escape'),
    });
  });
}
