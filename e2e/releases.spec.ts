import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { listDoubleRepositories } from '../test/github-double/index.ts';
import { expect, test } from './fixtures.ts';
import {
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  signIn,
} from './helpers/accounts.ts';
import { checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';
import { routeId, steerDouble } from './helpers/double.ts';

/**
 * The releases journey (docs/product.md#releases): a member adds a repository, it publishes a
 * release on the GitHub double, "Update from GitHub" makes it a version marked "Release" with a
 * link to GitHub; the member narrows the tag pattern (a bad one is refused by the shared
 * schema), and after the next release only the matching one becomes a version. Then the
 * Version Tracker at 1280 and 375 px in light and dark, screenshotted and checked with axe-core.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/release-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** A repository no other journey touches: far down the ranking, no releases of its own. */
const REPOSITORY =
  listDoubleRepositories()
    .filter((repository) => !repository.special)
    .map((repository) => repository.fullName)
    .filter((name) => /^[a-z0-9-]+\/[a-z0-9-]+$/i.test(name))[1500] ?? 'octo-double/bare-repository';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
const suffix = Date.now().toString(36).slice(-5);

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  const account = newAccount('releases');
  await createVerifiedAccount(request, account);
  // A context of its own (axe needs one), with a client address of its own for the rate limits.
  context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.181.${Math.floor(Math.random() * 250)}.9` },
  });
  page = await context.newPage();
  await signIn(page, account.username, account.password);
  await expect(page).not.toHaveURL(/#\/login/);
});

test.afterAll(async () => {
  await context?.close();
});

const versions = () => page.getByRole('list', { name: 'Versions' });
const tracking = () => page.getByRole('region', { name: 'Release tracking' });

test('a published release becomes a version; the tag pattern narrows the next ones', async ({ request }) => {
  test.setTimeout(90_000);
  await page.goto('/#/add');
  await page.getByRole('textbox', { name: 'Repositories' }).fill(REPOSITORY);
  await page.getByRole('main').getByRole('button', { name: 'Add Repositories' }).click();
  await expect(page.getByText(/Successfully added 1 repositories|Added 1 repository/)).toBeVisible({
    timeout: 30_000,
  });

  await page.goto(`/#/repo/${routeId(REPOSITORY)}?tab=versions`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(tracking().getByText('Releases are read at the next update from GitHub.')).toBeVisible();

  const first = `v${suffix}.1.0`;
  await steerDouble(request, 'releases/publish', {
    fullName: REPOSITORY,
    tag: first,
    name: 'First light',
    body: '## Highlights\n* Faster start\n* Smaller answers',
  });
  await page.getByRole('button', { name: 'Update from GitHub' }).click();
  const item = versions().getByRole('listitem').filter({ hasText: first });
  await expect(item).toBeVisible({ timeout: 30_000 });
  await expect(item.getByText('Release', { exact: true })).toBeVisible();
  await expect(item.getByText(/First light/)).toBeVisible();
  await expect(item.getByRole('link', { name: `View release ${first} on GitHub` })).toHaveAttribute(
    'href',
    `https://github.com/${REPOSITORY}/releases/tag/${first}`,
  );
  await expect(tracking().getByText(/New GitHub releases become versions\./)).toBeVisible();

  // A bad pattern is refused in the form; a good one is saved.
  const pattern = tracking().getByRole('textbox', { name: /Tag pattern/ });
  await pattern.fill('v*, !');
  await tracking().getByRole('button', { name: 'Save' }).click();
  await expect(
    tracking().getByText('A "!" must be followed by the tags to leave out, for example !*-rc*.'),
  ).toBeVisible();
  await pattern.fill('v*, !*-rc*');
  await tracking().getByRole('button', { name: 'Save' }).click();
  await expect(tracking().getByText('✅ Saved!')).toBeVisible();

  const candidate = `v${suffix}.2.0-rc.1`;
  const second = `v${suffix}.2.0`;
  await steerDouble(request, 'releases/publish', { fullName: REPOSITORY, tag: candidate });
  await steerDouble(request, 'releases/publish', { fullName: REPOSITORY, tag: second, name: 'Second' });
  await page.getByRole('button', { name: 'Update from GitHub' }).click();
  await expect(versions().getByRole('listitem').filter({ hasText: second })).toBeVisible({ timeout: 30_000 });
  await expect(versions().getByRole('listitem')).toHaveCount(2);
  await expect(versions().getByText(candidate)).toHaveCount(0);
});

for (const { width, scheme } of screenModes()) {
  test(`the Version Tracker at ${width} px in ${scheme} mode: screenshot and axe`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`/#/repo/${routeId(REPOSITORY)}?tab=versions`);
    await expect(versions().getByRole('listitem')).toHaveCount(2);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(page, 'version tracker');
    // The tracking control and both versions (badges, links) in one picture where they fit.
    await versions().getByRole('listitem').last().scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/version-tracker-${width}-${scheme}.png` });
    await checkAccessibility(page, `version tracker ${width}px ${scheme}`);
  });
}
