/**
 * The demo's small technology radar (docs/product.md#the-radar): decisions for a few imported
 * repositories and an edition published before the demo's year passes ("2026 Q3"), then moves,
 * arrivals and a retirement after it and a second edition ("2026 Q4"), then a few moves since,
 * so #/radar shows blips moved in, moved out and new, two editions to compare, a review due today and — from the
 * year's health reads and advisories — adopted repositories at risk.
 */

type Api = <T>(method: string, path: string, body?: object) => Promise<T>;
type Status = 'adopt' | 'trial' | 'assess' | 'hold' | 'retired';
type Placement = [fullName: string, status: Status, quadrant: string, rationale: string];

const BEFORE: Placement[] = [
  [
    'microsoft/TypeScript',
    'adopt',
    'languages',
    'Every new service is written in it; the types caught real bugs.',
  ],
  ['golang/go', 'adopt', 'languages', 'Our command-line tools and the proxy: one binary, fast builds.'],
  ['rust-lang/rust', 'trial', 'languages', 'Trying it for the parser hot path.'],
  ['vuejs/vue', 'adopt', 'languages', 'The admin front ends since 2023.'],
  ['angular/angular', 'hold', 'languages', 'No new projects: the two legacy apps move to Vue.'],
  ['django/django', 'adopt', 'languages', 'The billing service; mature and well documented.'],
  ['facebook/react', 'adopt', 'libraries', 'The customer-facing app and the design system.'],
  ['expressjs/express', 'adopt', 'libraries', 'The HTTP layer of the Node services.'],
  ['lodash/lodash', 'adopt', 'libraries', 'Utility functions across the Node services.'],
  ['axios/axios', 'adopt', 'libraries', 'The HTTP client of the front ends.'],
  ['d3/d3', 'assess', 'libraries', 'For the reporting charts.'],
  ['tokio-rs/tokio', 'assess', 'libraries', 'Comes with the Rust trial.'],
  ['f/awesome-chatgpt-prompts', 'trial', 'libraries', 'The support team’s prompt catalogue.'],
  ['microsoft/vscode', 'adopt', 'tools', 'The team’s editor, with shared settings.'],
  ['puppeteer/puppeteer', 'trial', 'tools', 'End-to-end tests of the customer app.'],
  ['tailwindlabs/tailwindcss', 'assess', 'tools', 'Could replace our hand-written utility classes.'],
  ['twbs/bootstrap', 'hold', 'tools', 'Only in the old marketing site.'],
  ['kubernetes/kubernetes', 'adopt', 'platforms', 'Production runs on it.'],
  ['nodejs/node', 'adopt', 'platforms', 'The runtime of most services.'],
  ['denoland/deno', 'assess', 'platforms', 'For scripts: no install step.'],
  ['flutter/flutter', 'assess', 'platforms', 'For the mobile app rewrite.'],
];

const AFTER: Placement[] = [
  [
    'rust-lang/rust',
    'adopt',
    'languages',
    'The parser rewrite shipped: 4× faster, no crashes in three months.',
  ],
  ['tokio-rs/tokio', 'trial', 'libraries', 'Runs the parser service in production behind a flag.'],
  ['tailwindlabs/tailwindcss', 'trial', 'tools', 'The new settings pages use it.'],
  ['denoland/deno', 'trial', 'platforms', 'The release scripts moved to it.'],
  ['puppeteer/puppeteer', 'hold', 'tools', 'Flaky on CI; the new tests use Playwright.'],
  [
    'lodash/lodash',
    'hold',
    'libraries',
    'Native array and object methods cover what we use; no new imports.',
  ],
  ['angular/angular', 'retired', 'languages', 'The last legacy app moved to Vue in October.'],
  ['python/cpython', 'assess', 'languages', 'The data team wants it for the pipelines.'],
  ['pytorch/pytorch', 'assess', 'libraries', 'For the ranking experiments.'],
];

/** Since the last edition: what the current radar marks as moved in, moved out and new. */
const SINCE: Placement[] = [
  ['d3/d3', 'trial', 'libraries', 'The new reporting page draws with it.'],
  ['flutter/flutter', 'hold', 'platforms', 'The mobile rewrite is paused for a year.'],
  ['tensorflow/tensorflow', 'assess', 'libraries', 'The data team compares it with PyTorch.'],
];

/** Places the first edition's decisions and publishes "2026 Q3"; names not imported are skipped. */
export async function seedRadarBefore(api: Api, imported: ReadonlySet<string>): Promise<void> {
  await place(api, imported, BEFORE);
  await api('POST', '/radar/editions', { name: '2026 Q3' });
}

/**
 * The quarter's moves, a review due today, "2026 Q4", and a few moves since it. Returns the
 * number of blips on the current radar.
 */
export async function moveRadarAfter(
  api: Api,
  imported: ReadonlySet<string>,
  today: string,
): Promise<number> {
  await place(api, imported, AFTER);
  if (imported.has('vuejs/vue'))
    await decide(
      api,
      'vuejs/vue',
      'adopt',
      'languages',
      'Still our front-end framework; check Vue 4’s migration path.',
      today,
    );
  await api('POST', '/radar/editions', { name: '2026 Q4' });
  await place(api, imported, SINCE);
  const radar = await api<{ blips: unknown[] }>('GET', '/radar');
  return radar.blips.length;
}

async function place(api: Api, imported: ReadonlySet<string>, placements: Placement[]): Promise<void> {
  for (const [fullName, status, quadrant, rationale] of placements) {
    if (!imported.has(fullName)) continue;
    await decide(api, fullName, status, quadrant, rationale).catch((error: Error) =>
      console.log(`  (radar: ${fullName} left off: ${error.message})`),
    );
  }
}

function decide(
  api: Api,
  fullName: string,
  status: Status,
  quadrant: string,
  rationale: string,
  reviewBy?: string,
) {
  return api('PUT', `/repositories/${encodeURIComponent(fullName)}/decision`, {
    status,
    quadrant,
    rationale,
    ...(reviewBy ? { review_by: reviewBy } : {}),
  });
}
