import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Which widths get axe: one per scheme (1280 light, 375 dark), so every screen is checked in both schemes. */
export function axeMode(width: number, scheme: 'light' | 'dark'): boolean {
  // Contrast depends on the scheme; the structure axe checks hardly on the width.
  return (width === 1280) === (scheme === 'light');
}

/**
 * axe-core over the page (or only `include`, a feature's own section) against WCAG 2.1 A and AA:
 * no serious or critical violation (a soft failure, so one run reports every screen); the rest is
 * printed for the report. AXE_DEBUG=1 prints each offending node.
 */
export async function checkAccessibility(page: Page, label: string, include?: string): Promise<void> {
  // Legacy mode runs axe in the page itself. The default opens a blank page in the context for
  // every check to merge the frames' results in, which took more than half of each check (the
  // app has no frames): docs/decisions.md, "axe in the page".
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const bad = results.violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
  const summary = results.violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
  if (summary.length > 0) console.log(`[axe] ${label}\n  ${summary.join('\n  ')}`);
  if (process.env.AXE_DEBUG) {
    for (const violation of bad)
      for (const node of violation.nodes) console.log('[axe-node]', node.html, node.failureSummary);
  }
  expect
    .soft(
      bad.map((violation) => violation.id),
      `${label}: ${summary.join('\n')}`,
    )
    .toEqual([]);
}

/**
 * Nothing sticks out sideways once the layout has settled: polled, because crossing a
 * breakpoint (the sidebar folding away at 375 px) animates, and a loaded machine draws the
 * animation's frames late.
 */
export async function expectNoSidewaysOverflow(page: Page, label: string): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
      message: `${label} overflows sideways (px)`,
      timeout: 5_000,
    })
    .toBeLessThanOrEqual(0);
}

export interface ScreenMode {
  width: number;
  scheme: 'light' | 'dark';
}

/**
 * The widths and schemes each spec's screens are walked in. The test command walks the two that
 * axe checks (1280 px light, 375 px dark: every scheme, and the phone's overflow); the other two
 * only add pictures, for a person to look at, so `E2E_ALL_MODES=1` (`npm run test:e2e:screens`)
 * walks all four.
 */
export function screenModes(): ScreenMode[] {
  const all: ScreenMode[] = [
    { width: 1280, scheme: 'light' },
    { width: 1280, scheme: 'dark' },
    { width: 375, scheme: 'light' },
    { width: 375, scheme: 'dark' },
  ];
  return process.env.E2E_ALL_MODES === '1' ? all : all.filter((mode) => axeMode(mode.width, mode.scheme));
}

/** One screen of a spec's walk: where it is, and what shows it is ready for its picture. */
export interface Screen {
  name: string;
  path: string;
  ready: (page: Page, width: number) => Promise<void>;
  /** axe over this feature's own section only (pages shared with other features). */
  scope?: string;
}

/**
 * Walks `screens` in one mode: each opened and made ready, in the right scheme, nothing
 * overflowing sideways, a picture in `dir`, and axe in the modes it checks. `settleMs` lets
 * charts and transitions finish; `after` closes what a screen opened (a dialog, a menu).
 */
export async function walkScreens(
  page: Page,
  screens: readonly Screen[],
  mode: ScreenMode & {
    dir: string;
    settleMs?: number;
    fullPage?: boolean;
    after?: (page: Page) => Promise<void>;
  },
): Promise<void> {
  const { width, scheme, dir, settleMs = 150, fullPage = true, after } = mode;
  for (const screen of screens) {
    await page.goto(screen.path);
    await screen.ready(page, width);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await expectNoSidewaysOverflow(page, screen.name);
    if (settleMs > 0) await page.waitForTimeout(settleMs);
    await page.screenshot({ path: `${dir}/${screen.name}-${width}-${scheme}.png`, fullPage });
    if (axeMode(width, scheme))
      await checkAccessibility(page, `${screen.name} ${width}px ${scheme}`, screen.scope);
    await after?.(page);
  }
}
