/**
 * The first screens' size check (issue 23 item 2, docs/benchmarks.md), run by `npm test` after
 * the web build: from web/dist/.vite/manifest.json, the bytes the server sends for the JS and
 * CSS each first screen loads — the entry, the screen's chunk, everything they import
 * statically, and their CSS — against its budget. What is sent to a browser is the build's
 * precompressed `.br` file (brotli 11, vite.config.ts), or the file itself where brotli saved
 * nothing, so the sizes are exact and there is no tolerance. Response headers are not counted:
 * `npm run bench -- first-screen` measures the same screens in Chromium, headers included.
 *
 *   node scripts/check-first-load.ts   # prints the table; exits 1 past a ceiling
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface Screen {
  name: string;
  /** Manifest keys (sources relative to web/) or chunk names the screen loads, besides the entry. */
  chunks: string[];
  /** The budget, in kB (1,000 bytes) as sent (brotli). */
  budget: number;
  /**
   * What the check holds: today's figure (rounded up to 0.1 kB), so that a screen growing past it
   * fails the test command even under its budget; raised only with a reason in the commit.
   */
  ceiling: number;
}

/**
 * Each screen's chunks: the ones vite.config.ts makes of the first screens (`SCREEN_CHUNKS`:
 * a route module with the app's modules and libraries it imports), by name.
 */
export const SCREENS: Screen[] = [
  { name: 'landing #/', chunks: ['landing'], budget: 150, ceiling: 123.6 },
  { name: 'sign-in #/login', chunks: ['sign-in'], budget: 150, ceiling: 134.4 },
  { name: 'sign-in → list #/home', chunks: ['sign-in', 'member'], budget: 250, ceiling: 244.1 },
];

/** A chunk made by a `codeSplitting` group of vite.config.ts, by its name (`sign-in`). */
function namedChunk(manifest: Manifest, name: string): ManifestChunk | undefined {
  return Object.entries(manifest).find(([key, chunk]) => key.startsWith('_') && chunk.name === name)?.[1];
}

/** Every file (JS and CSS) the entry and `chunks` load before they run. */
export function filesLoaded(manifest: Manifest, chunks: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key] ?? namedChunk(manifest, key);
    if (!chunk) throw new Error(`${key} is not in the build's manifest: run \`npm run build\``);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit('index.html');
  for (const key of chunks) visit(key);
  return files;
}

/**
 * The bytes the server sends for `files` to a browser that accepts brotli: each one's `.br`
 * beside it, or the file itself where the build wrote none (brotli saved nothing). A build
 * without any `.br` was not made by vite.config.ts's `precompressAssets` and is refused.
 */
export function servedBytes(distDir: string, files: Iterable<string>): number {
  let total = 0;
  let compressed = 0;
  for (const file of files) {
    const br = join(distDir, `${file}.br`);
    if (existsSync(br)) compressed += 1;
    total += statSync(existsSync(br) ? br : join(distDir, file)).size;
  }
  if (total > 0 && compressed === 0)
    throw new Error(`${distDir} has no precompressed (.br) assets: build it with \`npm run build\``);
  return total;
}

export function measureScreens(distDir: string): { screen: Screen; kb: number; files: number }[] {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  return SCREENS.map((screen) => {
    const files = filesLoaded(manifest, screen.chunks);
    return { screen, kb: servedBytes(distDir, files) / 1000, files: files.size };
  });
}

/**
 * Mantine's stylesheets are imported component by component (app/first-screen-styles.ts,
 * app/shell/member-styles.ts), so a component used for the first time renders unstyled until
 * its file is added. The build says which components it contains: each stylesheet whose class
 * names (`m_` and eight hex digits) appear in a built chunk must be imported by some web file.
 * Answers the files missing.
 */
export function missingMantineStyles(distDir: string, webDir: string, stylesDir: string): string[] {
  const imported = new Set<string>();
  for (const file of readdirSync(webDir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue;
    const source = readFileSync(join(webDir, file), 'utf8');
    for (const match of source.matchAll(/@mantine\/core\/styles\/([\w-]+\.css)/g))
      imported.add(match[1] as string);
  }
  const assets = join(distDir, 'assets');
  const built = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
  return readdirSync(stylesDir)
    .filter((file) => file.endsWith('.css') && !file.endsWith('.layer.css') && !imported.has(file))
    .filter((file) => {
      const classes = readFileSync(join(stylesDir, file), 'utf8').matchAll(/\.(m_[0-9a-f]{8})\b/g);
      return [...classes].some((match) => built.includes(match[1] as string));
    });
}

if (import.meta.main) {
  const distDir = join(import.meta.dirname, '..', 'web', 'dist');
  let failed = 0;
  console.log('| screen | JS + CSS, brotli as sent | files | budget | check |');
  console.log('|---|---|---|---|---|');
  for (const { screen, kb, files } of measureScreens(distDir)) {
    const verdict =
      kb > screen.ceiling
        ? `**over the ${screen.ceiling} kB it is held at**`
        : kb <= screen.budget
          ? `budget met; held at ${screen.ceiling} kB`
          : `budget missed by ${(kb - screen.budget).toFixed(1)} kB; held at ${screen.ceiling} kB`;
    if (kb > screen.ceiling) failed += 1;
    console.log(`| ${screen.name} | ${kb.toFixed(1)} kB | ${files} | ≤ ${screen.budget} kB | ${verdict} |`);
  }
  const root = join(import.meta.dirname, '..');
  const missing = missingMantineStyles(
    distDir,
    join(root, 'web'),
    join(root, 'node_modules', '@mantine', 'core', 'styles'),
  );
  if (missing.length > 0) {
    failed += 1;
    console.log(
      `\nMantine components in the build without their stylesheet (add each to app/shell/member-styles.ts, or app/first-screen-styles.ts for a signed-out screen): ${missing.join(', ')}`,
    );
  }
  process.exit(failed > 0 ? 1 : 0);
}
