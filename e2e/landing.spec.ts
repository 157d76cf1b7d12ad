import { expect, test } from './fixtures.ts';
import { axeMode, checkAccessibility, expectNoSidewaysOverflow, screenModes } from './helpers/axe.ts';

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? 'test-results/screenshots';

test.describe('landing page and hash navigation', () => {
  test('an anonymous visitor sees the landing page and reaches sign-in and registration', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText('Initializing...')).toHaveCount(0);
    await expect(page.locator('footer').last()).toContainText('Repository Tracker');

    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL(/#\/register$/);

    await page.goBack();
    await expect(page).toHaveURL(/\/(#\/?)?$/);
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await expect(page).toHaveURL(/#\/login$/);

    // A protected screen remembers where the visitor wanted to go, then asks to sign in.
    await page.goto('/#/profile');
    await expect(page).toHaveURL(/#\/login$/);
    expect(await page.evaluate(() => sessionStorage.getItem('redirect_after_login'))).toBe('#/profile');

    // Tags, stats and add explain instead of redirecting.
    await page.goto('/#/add');
    await expect(page.getByText('Please sign in to add repositories')).toBeVisible();

    // An unknown path shows the landing page to an anonymous visitor.
    await page.goto('/#/no/such/screen');
    await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
  });

  test('the API serves its JSON at the same origin', async ({ request }) => {
    const version = await request.get('/version');
    expect(version.ok()).toBe(true);
    expect(await version.json()).toMatchObject({
      app_name: 'Repository Tracker',
      api_version: expect.any(String),
    });
    const missing = await request.get('/repositories/no/such/path/at/all');
    expect(missing.status()).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
  });

  for (const { width, scheme } of screenModes()) {
    test(`renders at ${width} px in ${scheme} mode`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/');
      await expect(page.getByRole('link', { name: 'Get Started' }).first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      // Nothing overflows sideways on a phone.
      await expectNoSidewaysOverflow(page, 'landing');
      await page.screenshot({ path: `${SCREENSHOT_DIR}/landing-${width}-${scheme}.png`, fullPage: true });
      if (axeMode(width, scheme)) await checkAccessibility(page, `landing ${width}px ${scheme}`);
    });
  }

  test('the light/dark switch overrides the system setting and is remembered', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });
});
