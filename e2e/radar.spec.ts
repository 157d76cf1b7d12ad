import { mkdirSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { listDoubleRepositories } from '../test/github-double/index.ts';
import { expect, test } from './fixtures.ts';
import {
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  storeApiSession,
} from './helpers/accounts.ts';
import { checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';
import { CONTROL_URL } from './helpers/mail.ts';

/**
 * The radar journey (docs/product.md#radar-screen). Three repositories get decisions through the
 * API; the instance's admin publishes an edition on the screen, one repository moves to Adopt
 * and the radar marks it "moved in"; its blip's tooltip shows why and the blip opens the
 * repository; a second edition is published and Compare editions lists the move. Then the
 * radar at 1280 px light and 375 px dark, with axe, and the second edition published publicly
 * and unpublished again through its dialog in both.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/radar-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

const [LIBRARY, TOOL, PLATFORM] = listDoubleRepositories()
  .filter((repository) => !repository.special)
  .map((repository) => repository.fullName)
  .filter((name) => /^[a-z0-9-]+\/[a-z0-9-]+$/i.test(name))
  .slice(1800, 1803) as [string, string, string];
const suffix = Date.now().toString(36).slice(-5);

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
let headers: Record<string, string>;

async function bearer(request: APIRequestContext, login: string, password: string) {
  const session = await request.post('/auth/login', { data: { email_or_username: login, password } });
  expect(session.ok(), await session.text()).toBe(true);
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

async function decide(
  request: APIRequestContext,
  fullName: string,
  status: string,
  quadrant: string,
  rationale: string,
) {
  const answer = await request.put(`/repositories/${encodeURIComponent(fullName)}/decision`, {
    headers,
    data: { status, quadrant, rationale },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  const member = newAccount('radar');
  await createVerifiedAccount(request, member);
  const memberHeaders = await bearer(request, member.username, member.password);
  for (const id of [LIBRARY, TOOL, PLATFORM]) {
    const added = await request.post('/repositories/', { headers: memberHeaders, data: { id } });
    expect([201, 409], await added.text()).toContain(added.status());
  }
  const erin = (await (await request.get(`${CONTROL_URL}/admin`)).json()) as {
    username: string;
    password: string;
  };
  headers = await bearer(request, erin.username, erin.password);
  await decide(request, LIBRARY, 'adopt', 'libraries', 'Our standard HTTP layer since 2024.');
  await decide(request, TOOL, 'trial', 'tools', 'Two teams try it for their builds.');
  await decide(request, PLATFORM, 'assess', 'platforms', 'Could host the preview environments.');
  context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.183.${Math.floor(Math.random() * 250)}.7` },
  });
  await storeApiSession(request, context, erin);
  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
});

const blip = (name: string) =>
  page.locator('[data-blip]').and(page.getByRole('link', { name: new RegExp(`^\\d+\\. ${name}, `) }));

test('an edition is published, a move shows on the radar and in the comparison, a blip opens its repository', async ({
  request,
}) => {
  await page.goto('/#/radar');
  await expect(blip(LIBRARY)).toBeVisible();
  await page.getByRole('button', { name: 'Publish edition' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish edition' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Journey ${suffix} one`);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toBeHidden();

  await decide(request, TOOL, 'adopt', 'tools', 'Every build uses it now; no regressions in a month.');
  await page.reload();
  await expect(blip(TOOL)).toHaveAttribute('aria-label', new RegExp(`${TOOL}, Adopt, Tools, moved in`));
  await blip(TOOL).focus();
  await expect(page.getByRole('tooltip')).toContainText(
    'Every build uses it now; no regressions in a month.',
  );

  const published = await request.post('/radar/editions', {
    headers,
    data: { name: `Journey ${suffix} two` },
  });
  expect(published.status(), await published.text()).toBe(201);
  await page.reload();
  await page.getByRole('button', { name: 'Compare editions' }).click();
  const compare = page.getByRole('region', { name: 'Compare editions' });
  const row = compare.getByRole('row').filter({ hasText: TOOL });
  await expect(row).toContainText('Trial');
  await expect(row).toContainText('Adopt');

  await blip(LIBRARY).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(LIBRARY.split('/')[1] as string);
});

for (const { width, scheme } of screenModes()) {
  test(`the radar at ${width} px in ${scheme} mode: screenshot and axe`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/#/radar');
    await expect(blip(TOOL)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(page, 'radar');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/radar-${width}-${scheme}.png`, fullPage: true });
    await checkAccessibility(page, `Radar ${width} ${scheme}`);
  });
}

for (const { width, scheme } of screenModes()) {
  test(`an edition published publicly at ${width} px in ${scheme} mode: the dialog, its address, unpublished`, async ({
    request,
  }) => {
    const name = `Journey ${suffix} two`;
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/#/radar');
    // A fresh page: the notice of the other mode's Unpublish must not answer for this one's.
    await page.reload();
    await page.getByRole('combobox', { name: 'Edition' }).click();
    await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
    await page.getByRole('button', { name: 'Publish publicly' }).click();
    const dialog = page.getByRole('dialog', { name: `Publish “${name}” publicly` });
    await dialog.getByRole('checkbox', { name: 'Include rationales' }).check();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/radar-publish-${width}-${scheme}.png` });
    await checkAccessibility(page, `Radar publish dialog ${width} ${scheme}`, '[role="dialog"]');

    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    const address = dialog.getByRole('textbox', { name: 'Public address' });
    await expect(address).toHaveValue(/\/p\/radar\/[A-Za-z0-9_-]{43}$/);
    await expect(dialog.getByText('With rationales.')).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/radar-published-${width}-${scheme}.png` });
    await checkAccessibility(page, `Radar published dialog ${width} ${scheme}`, '[role="dialog"]');
    const url = await address.inputValue();
    const opened = await request.get(url);
    expect(opened.status()).toBe(200);
    expect(await opened.text()).toContain(TOOL);

    await dialog.getByRole('button', { name: 'Unpublish' }).click();
    await expect(page.getByText(`“${name}” is no longer public.`)).toBeVisible();
    expect((await request.get(url)).status()).toBe(404);
  });
}
