import { mkdirSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  createVerifiedAccount,
  newAccount,
  registerThrowawayFirstAccount,
  signIn,
} from './helpers/accounts.ts';
import { checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';
import { CONTROL_URL } from './helpers/mail.ts';

/**
 * The notification journey (docs/product.md#notification-rules): a member adds a webhook
 * channel pointing at e2e/serve.ts's sink, sends a test, adds a rule for one tag, a release of a
 * repository with that tag is recorded, the dispatcher (every 2 s there) sends it, and the
 * delivery shows as sent. Then the tab at 1280 and 375 px in light and dark, screenshotted and
 * checked with axe-core.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/notification-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

interface SinkEntry {
  path: string;
  body: { text?: string; type?: string; event?: { type: string; data: { tag: string } } };
}

async function sink(request: APIRequestContext): Promise<{ url: string; received: SinkEntry[] }> {
  const response = await request.get(`${CONTROL_URL}/notifications/webhooks`);
  expect(response.ok()).toBe(true);
  return response.json();
}

async function recordRelease(request: APIRequestContext, name: string, tag: string, tags: string) {
  const response = await request.post(
    `${CONTROL_URL}/notifications/event?name=${encodeURIComponent(name)}&tag=${tag}&tags=${tags}`,
  );
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
const suffix = Date.now().toString(36).slice(-6);
const tag = `notify-${suffix}`;
const repository = `e2e-notify/app-${suffix}`;

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  const account = newAccount('notify');
  await createVerifiedAccount(request, account);
  // A context of its own (axe needs one), with the journey's client address like every request.
  context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.184.${Math.floor(Math.random() * 250)}.7` },
  });
  page = await context.newPage();
  await signIn(page, account.username, account.password);
  await expect(page).not.toHaveURL(/#\/login/);
  // The repository carries the tag, so the rule form offers it (its first release goes nowhere yet).
  await recordRelease(request, repository, 'v1.0.0', tag);
});

test.afterAll(async () => {
  await context?.close();
});

test('a webhook channel, a test, a rule for a tag, and a release delivered', async ({ request }) => {
  const { url } = await sink(request);
  const hookPath = `/journey-${suffix}`;
  await page.goto('/#/settings?tab=notifications');
  await expect(page.getByRole('heading', { level: 2, name: 'Channels' })).toBeVisible();

  // The channel: a URL on a host the operator listed.
  await page.getByRole('button', { name: 'Add Channel' }).click();
  const channelDialog = page.getByRole('dialog', { name: 'Add channel' });
  await channelDialog.getByRole('textbox', { name: 'Name' }).fill('Journey hook');
  await channelDialog.getByRole('textbox', { name: /^Webhook URL/ }).fill('https://evil.example.org/hook');
  await channelDialog.getByRole('button', { name: 'Add Channel' }).click();
  await expect(channelDialog.getByText(/^Webhook URL must point to /)).toBeVisible();
  await channelDialog.getByRole('textbox', { name: /^Webhook URL/ }).fill(`${url}${hookPath}`);
  await channelDialog.getByRole('button', { name: 'Add Channel' }).click();
  await expect(page.getByText('Channel "Journey hook" added')).toBeVisible();
  const channel = page.getByRole('listitem', { name: 'Journey hook', exact: true });
  await expect(channel).toContainText('Active');
  // Write-only: the page shows the host and the last four characters, never the URL.
  await expect(page.getByText(`${url}${hookPath}`)).toHaveCount(0);

  await channel.getByRole('button', { name: 'Send test to Journey hook' }).click();
  await expect(page.getByText('Journey hook: Test message sent')).toBeVisible();
  expect((await sink(request)).received.filter((entry) => entry.path === hookPath)[0]?.body.type).toBe(
    'test',
  );

  // The rule: releases of repositories with the journey's tag, instantly.
  await page.getByRole('button', { name: 'Add Rule' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Add rule' });
  await ruleDialog.getByRole('checkbox', { name: 'Repositories with any tag (or none)' }).uncheck();
  await ruleDialog.getByRole('combobox', { name: 'Tags' }).click();
  await page.getByRole('option', { name: tag }).click();
  await ruleDialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(page.getByText('Rule added')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Rules' })).toContainText(`For tagged ${tag}, to Journey hook`);

  // A release is recorded; the dispatcher sends it within a few seconds.
  await recordRelease(request, repository, 'v2.0.0', tag);
  await expect
    .poll(
      async () =>
        (await sink(request)).received.find(
          (entry) => entry.path === hookPath && entry.body.type === 'notification',
        )?.body.text,
      { timeout: 15_000 },
    )
    .toBe(`${repository} published release v2.0.0`);
  const deliveries = page.getByRole('list', { name: 'Deliveries' });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(deliveries.getByRole('listitem').first()).toContainText(
      `${repository} published release v2.0.0`,
      {
        timeout: 1000,
      },
    );
  }).toPass({ timeout: 10_000 });
  await expect(deliveries.getByRole('listitem').first()).toContainText('Sent');
});

for (const { width, scheme } of screenModes()) {
  test(`the Notifications tab at ${width} px in ${scheme} mode: screenshots and axe`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    // A fresh load: no messages left over from the journey.
    await page.goto('/#/settings?tab=notifications');
    await page.reload();
    await expect(page.getByRole('listitem', { name: 'Journey hook', exact: true })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Deliveries' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(page, 'notifications tab');
    await page.waitForTimeout(300);
    await page.screenshot({
      path: `${SCREENSHOT_DIR}/notifications-${width}-${scheme}.png`,
      fullPage: true,
    });
    await checkAccessibility(page, `notifications ${width}px ${scheme}`);
    await page.getByRole('button', { name: 'Add Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add rule' });
    await expect(dialog).toBeVisible();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/notifications-rule-${width}-${scheme}.png` });
    // The dialog's own check where its layout is tightest; the wide one shares its colours.
    if (width === 375) await checkAccessibility(page, `notification rule form ${width}px ${scheme}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
}
