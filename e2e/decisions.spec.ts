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
import { routeId } from './helpers/double.ts';
import { CONTROL_URL } from './helpers/mail.ts';

/**
 * The team-decisions journey (docs/product.md#team-decisions). The e2e instance decides with
 * DECISIONS_BY=admins (e2e/serve.ts): a member proposes a move on the Decision tab and votes
 * for it, the instance's admin accepts it — the decision record names the proposal — and then
 * records a decision directly. Then the tab at 1280 px light and 375 px dark, with axe.
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? '/tmp/decision-shots';
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** A repository no other journey touches, far down the double's ranking. */
const REPOSITORY =
  listDoubleRepositories()
    .filter((repository) => !repository.special)
    .map((repository) => repository.fullName)
    .filter((name) => /^[a-z0-9-]+\/[a-z0-9-]+$/i.test(name))[1700] ?? 'octo-double/bare-repository';

test.describe.configure({ mode: 'serial' });

let memberContext: BrowserContext;
let adminContext: BrowserContext;
let member: Page;
let admin: Page;

async function bearer(request: APIRequestContext, login: string, password: string) {
  const session = await request.post('/auth/login', { data: { email_or_username: login, password } });
  expect(session.ok(), await session.text()).toBe(true);
  return { authorization: `Bearer ${((await session.json()) as { access_token: string }).access_token}` };
}

test.beforeAll(async ({ browser, request }, testInfo) => {
  await registerThrowawayFirstAccount(request);
  const account = newAccount('decider');
  await createVerifiedAccount(request, account);
  const added = await request.post('/repositories/', {
    headers: await bearer(request, account.username, account.password),
    data: { id: REPOSITORY },
  });
  expect([201, 409], await added.text()).toContain(added.status());
  const erin = (await (await request.get(`${CONTROL_URL}/admin`)).json()) as {
    username: string;
    password: string;
  };
  const open = async (who: { username: string; password: string }, octet: number) => {
    const context = await browser.newContext({
      baseURL: testInfo.project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': `10.182.${octet}.${Math.floor(Math.random() * 250)}` },
    });
    await storeApiSession(request, context, who);
    return context;
  };
  memberContext = await open(account, 1);
  adminContext = await open(erin, 2);
  member = await memberContext.newPage();
  admin = await adminContext.newPage();
});

test.afterAll(async () => {
  await memberContext?.close();
  await adminContext?.close();
});

const decisionTab = `/#/repo/${routeId(REPOSITORY)}?tab=decision`;

test('a member proposes and votes; the admin accepts, then records a decision directly', async () => {
  await member.goto(decisionTab);
  const form = member.getByRole('form', { name: 'Propose a change' });
  await expect(form).toBeVisible();
  await form.getByRole('combobox', { name: 'Status' }).click();
  await member.getByRole('option', { name: 'Trial' }).click();
  await form
    .getByRole('textbox', { name: /Rationale/ })
    .fill('We need **a faster** parser; this one benchmarks 3× ours.');
  await form.getByRole('button', { name: 'Propose' }).click();
  await expect(
    member.getByText('✅ Proposal sent: members can vote on it and an admin decides.'),
  ).toBeVisible();
  const proposals = member.getByRole('region', { name: 'Open proposals (1)' });
  await proposals.getByRole('button', { name: /Vote \+1 on proposal \d+ \(0 so far\)/ }).click();
  await expect(
    proposals.getByRole('button', { name: /Vote \+1 on proposal \d+ \(1 so far\)/ }),
  ).toHaveAttribute('aria-pressed', 'true');

  await admin.goto(decisionTab);
  const adminForm = admin.getByRole('form', { name: 'Change decision' });
  await expect(adminForm).toBeVisible();
  const pending = admin.getByRole('region', { name: 'Open proposals (1)' });
  await expect(pending.getByText('We need **a faster** parser; this one benchmarks 3× ours.')).toBeVisible();
  await pending.getByRole('button', { name: 'Accept' }).click();
  const now = admin.getByRole('region', { name: 'Decision' });
  await expect(now.getByText(/\(accepted proposal #\d+\)/)).toBeVisible();
  await expect(
    admin
      .getByRole('region', { name: 'History (1)' })
      .getByText('No status → Trial · Languages & Frameworks'),
  ).toBeVisible();

  await adminForm.getByRole('combobox', { name: 'Status' }).click();
  await admin.getByRole('option', { name: 'Adopt' }).click();
  await adminForm.getByRole('button', { name: 'Record decision' }).click();
  await expect(
    adminForm.getByText('Say why: a rationale is required for adopt, hold and retired.'),
  ).toBeVisible();
  await adminForm
    .getByRole('textbox', { name: /Rationale/ })
    .fill('Three months in production without an incident.');
  await adminForm.getByRole('textbox', { name: 'Links' }).fill('https://example.com/adr/12');
  await adminForm.getByRole('button', { name: 'Record decision' }).click();
  await expect(admin.getByText('✅ Decision recorded.')).toBeVisible();
  const history = admin.getByRole('region', { name: 'History (2)' });
  await expect(
    history.getByText('Trial · Languages & Frameworks → Adopt · Languages & Frameworks'),
  ).toBeVisible();
  await expect(now.getByRole('link', { name: 'https://example.com/adr/12' })).toBeVisible();
});

for (const { width, scheme } of screenModes()) {
  test(`the Decision tab at ${width} px in ${scheme} mode: screenshot and axe`, async () => {
    await admin.setViewportSize({ width, height: 900 });
    await admin.emulateMedia({ colorScheme: scheme });
    await admin.goto(decisionTab);
    await expect(admin.getByRole('region', { name: 'History (2)' })).toBeVisible();
    await expect(admin.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(admin, 'decision tab');
    await admin.screenshot({ path: `${SCREENSHOT_DIR}/decision-${width}-${scheme}.png`, fullPage: true });
    await checkAccessibility(admin, `Decision tab ${width} ${scheme}`);
  });
}
