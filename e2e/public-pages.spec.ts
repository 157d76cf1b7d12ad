import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from '@playwright/test';
import { listDoubleRepositories } from '../test/github-double/index.ts';
import { expect, test } from './fixtures.ts';
import {
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  storeApiSession,
} from './helpers/accounts.ts';
import { checkAccessibility, screenModes } from './helpers/axe.ts';

/**
 * The public pages journey (docs/product.md#public-pages). A member saves a shared view of the
 * repositories they added, publishes it with Stars only through the dialog and copies the
 * address; the page opens in a fresh browser without JavaScript, shows both repositories and
 * only the chosen field, passes axe at 1280 px light and 375 px dark without overflowing the
 * phone; unpublished, the address answers 404.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/public-pages-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

const REPOSITORIES = listDoubleRepositories()
  .filter((repository) => !repository.special)
  .map((repository) => repository.fullName)
  .filter((name) => /^[a-z0-9-]+\/[a-z0-9-]+$/i.test(name))
  .slice(2300, 2302) as [string, string];
const suffix = Date.now().toString(36).slice(-5);
const VIEW = `Ours ${suffix}`;

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
let address = '';

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  const member = newAccount('public');
  await createVerifiedAccount(request, member);
  const session = await request.post('/auth/login', {
    data: { email_or_username: member.username, password: member.password },
  });
  const headers = {
    authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}`,
  };
  for (const id of REPOSITORIES) {
    const added = await request.post('/repositories/', { headers, data: { id } });
    expect(added.status(), await added.text()).toBe(201);
  }
  context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    permissions: ['clipboard-read', 'clipboard-write'],
    extraHTTPHeaders: { 'x-forwarded-for': `10.184.${Math.floor(Math.random() * 250)}.7` },
  });
  await storeApiSession(request, context, member);
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
});

test('a member saves a shared view and publishes it with the fields chosen', async () => {
  await page.goto('/#/home?added_by=me');
  await expect(page.getByText(/Showing 2 of 2 repositories/)).toBeVisible();
  await page.getByRole('button', { name: 'Save view' }).click();
  const save = page.getByRole('dialog', { name: 'Save this view' });
  await save.getByRole('textbox', { name: 'Name' }).fill(VIEW);
  await save.getByRole('switch', { name: /Share with the team/ }).check({ force: true });
  await save.getByRole('button', { name: 'Save view' }).click();
  await expect(save).toBeHidden();

  await page.getByRole('button', { name: `View: ${VIEW}` }).click();
  await page.getByRole('menuitem', { name: 'Publish…' }).click();
  const dialog = page.getByRole('dialog', { name: `Publish “${VIEW}”` });
  await expect(dialog.getByRole('checkbox', { name: /private notes/ })).not.toBeChecked();
  for (const name of [/^Description/, /^Growth/, /^Health/, /^Release/]) {
    await dialog.getByRole('checkbox', { name }).uncheck();
  }
  await expect(dialog.getByRole('checkbox', { name: /^Stars/ })).toBeChecked();
  await dialog.getByRole('button', { name: 'Publish' }).click();
  const url = dialog.getByRole('textbox', { name: 'Public address' });
  await expect(url).toHaveValue(/\/p\/[A-Za-z0-9_-]{43}$/);
  address = await url.inputValue();
  await dialog.getByRole('button', { name: 'Copy the address' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await expect(dialog.getByRole('link', { name: /Open/ })).toHaveAttribute('href', address);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/publish-dialog.png` });
});

for (const { width, scheme } of screenModes()) {
  test(`the public page without JavaScript at ${width} px in ${scheme} mode: rows, chosen fields, axe`, async ({
    browser,
  }) => {
    expect(address).not.toBe('');
    const reader = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width, height: 900 },
      colorScheme: scheme,
    });
    try {
      const publicPage = await reader.newPage();
      const answer = await publicPage.goto(address);
      expect(answer?.status()).toBe(200);
      await expect(publicPage.getByRole('heading', { level: 1 })).toHaveText(VIEW);
      const rows = publicPage.getByRole('list', { name: 'Repositories' }).getByRole('listitem');
      await expect(rows).toHaveCount(2);
      for (const name of REPOSITORIES) {
        await expect(publicPage.getByRole('link', { name, exact: true })).toBeVisible();
      }
      // Stars only: no growth, health, release, tags or notes.
      await expect(rows.first()).toContainText('Stars');
      const text = (await publicPage.locator('main').innerText()) ?? '';
      for (const absent of ['30 days', 'Health', 'Release', 'Tags', 'Notes', 'Status'])
        expect(text).not.toContain(absent);
      const json = (await (await reader.request.get(`${address}.json`)).json()) as {
        fields: string[];
        repositories: Record<string, unknown>[];
      };
      expect(json.fields).toEqual(['stars']);
      for (const row of json.repositories) expect(Object.keys(row).sort()).toEqual(['name', 'stars', 'url']);
      expect(await publicPage.locator('script').count()).toBe(0);
      const overflow = await publicPage.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await publicPage.screenshot({
        path: `${SCREENSHOT_DIR}/public-page-${width}-${scheme}.png`,
        fullPage: true,
      });
      // axe runs as a script of its own, which a context without JavaScript never finishes: the
      // same page, still without any script of its own, is checked in a second context.
      const checker = await browser.newContext({
        viewport: { width, height: 900 },
        colorScheme: scheme,
        bypassCSP: true,
      });
      try {
        const checked = await checker.newPage();
        await checked.goto(address);
        await checkAccessibility(checked, `public page ${width} ${scheme}`);
      } finally {
        await checker.close();
      }
    } finally {
      await reader.close();
    }
  });
}

test('unpublished, the address answers 404', async () => {
  await page
    .getByRole('dialog', { name: `Publish “${VIEW}”` })
    .getByRole('button', { name: 'Unpublish' })
    .click();
  await expect(page.getByText(`“${VIEW}” is no longer public; its address answers 404.`)).toBeVisible();
  const gone = await page.request.get(address);
  expect(gone.status()).toBe(404);
});
