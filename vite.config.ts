import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** The API server in development (`npm start` listens there by default, DESIGN §5). */
const apiTarget = 'http://127.0.0.1:3000';

/**
 * The API's path prefixes (the server's `API_PREFIXES`). Anchored so that only whole path
 * segments are proxied: a source module such as `/lib/api-client.ts` must stay with Vite.
 */
const apiPathPattern = '^/(auth|repositories|api|health|version|docs|tags|badge)(/|\\?|$)';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside each built
 * script, stylesheet and SVG in `assets/`, which the server answers as they are
 * (server/plugins/web-app.ts, `preCompressed`): on the fly it compresses at brotli's quality 4,
 * about 15% larger. A variant that saves nothing is not written (the server then sends the file
 * itself). In the build rather than the server so that every `vite build` has them
 * (docs/decisions.md, "The first screens").
 */
export function precompressAssets(): Plugin {
  let outDir = '';
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle() {
      const assets = join(outDir, 'assets');
      const files = (await readdir(assets)).filter((file) => /\.(js|css|svg)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const body = await readFile(join(assets, file));
          const [br, gz] = await Promise.all([
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
            gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          if (br.length < body.length) await writeFile(join(assets, `${file}.br`), br);
          if (gz.length < body.length) await writeFile(join(assets, `${file}.gz`), gz);
        }),
      );
    },
  };
}

const webDir = fileURLToPath(new URL('./web/', import.meta.url));
const sharedDir = fileURLToPath(new URL('./shared/', import.meta.url));

/**
 * The chunks of what the first screens load after the entry (docs/decisions.md, "The first
 * screens"). Left to itself, Rolldown makes a chunk of each set of lazily loaded modules sharing
 * code: the list after sign-in came as 75 files, each with a request and its response headers.
 * Here each group below is one chunk: the app's own modules that its roots (lazily loaded
 * modules) import statically, the roots themselves, and through them the library code they use
 * (Rolldown's `includeDependenciesRecursively`); `contract` is zod. A module two groups use goes
 * to the first in this order, and the other chunk imports it: the signed-out screens and what
 * they load on demand (the toggle's tooltip, notifications, the account screens) come first and
 * never import a signed-in chunk; the list loads the sign-in chunk anyway (a member has signed
 * in), and with it the landing page's chunk (its cards and icons), the tooltip's (floating-ui,
 * which the list's menus use too), zod's and the auth schema's: a few files rather than a dozen
 * of the modules they share. Every other lazily loaded module (the other signed-in screens, the
 * parts of the list loaded on first use) stays Rolldown's to split, importing these chunks.
 */
export const CHUNK_GROUPS: { name: string; roots?: string[]; test?: RegExp }[] = [
  { name: 'landing', roots: ['features/landing/routes/landing.tsx'] },
  { name: 'sign-in', roots: ['features/auth/routes/login.tsx'] },
  { name: 'tooltip', roots: ['app/shell/color-scheme-tooltip.tsx'] },
  // react-remove-scroll (Mantine's scroll lock): the notifications view and the list's dialogs
  // both use it; a chunk of its own, so the list does not load the notifications view with it.
  {
    name: 'scroll-lock',
    test: /[\\/]node_modules[\\/](react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|tslib)[\\/]/,
  },
  { name: 'notifications', roots: ['app/notifications-view.tsx'] },
  // zod: the list checks answers with it, and so do the account screens (register, reset
  // password); as a chunk of its own, neither loads the other's code with it.
  { name: 'contract', test: /[\\/]node_modules[\\/]zod[\\/]/ },
  // The auth schema and password rules, which the account screens and the signed-in screens
  // share: alone, so the list does not load the account screens' chunk for them.
  { name: 'auth-schema', test: /[\\/]shared[\\/](schemas[\\/]auth|password-rules)\.ts$/ },
  {
    name: 'account',
    roots: [
      'features/auth/routes/register.tsx',
      'features/auth/routes/forgot-password.tsx',
      'features/auth/routes/resend-verification.tsx',
      'features/auth/routes/reset-password.tsx',
      'features/auth/routes/verify-email.tsx',
    ],
  },
  {
    name: 'member',
    roots: [
      'app/shell/member-styles.ts',
      'app/shell/member-navbar.tsx',
      'features/repositories/routes/repository-list.tsx',
      'app/prefetch-list.ts',
    ],
  },
];

/**
 * Records, once the module graph is complete, which modules each group of `CHUNK_GROUPS`
 * captures; the groups' `test` reads it when the chunks are made.
 */
function chunkGroups() {
  const captured = new Map<string, Set<string>>();
  const plugin: Plugin = {
    name: 'chunk-groups',
    apply: 'build',
    buildEnd() {
      const lazy = new Set<string>();
      for (const id of this.getModuleIds())
        for (const target of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) lazy.add(target);
      // The app's own files only: libraries are reached through barrel files (`@mantine/core`
      // imports every component), and Rolldown brings in what the app's modules use of them.
      const own = (id: string) => id.startsWith(webDir) || id.startsWith(sharedDir);
      for (const { name, roots = [] } of CHUNK_GROUPS) {
        const rootIds = roots.map((root) => join(webDir, root));
        const seen = new Set<string>();
        const stack = [...rootIds];
        while (stack.length > 0) {
          const id = stack.pop() as string;
          if (seen.has(id)) continue;
          seen.add(id);
          stack.push(...(this.getModuleInfo(id)?.importedIds ?? []).filter(own));
        }
        captured.set(name, new Set([...seen].filter((id) => !lazy.has(id) || rootIds.includes(id))));
      }
    },
  };
  const groups = CHUNK_GROUPS.map(({ name, test }, index) => ({
    name,
    priority: CHUNK_GROUPS.length - index,
    test: (id: string) => test?.test(id) || captured.get(name)?.has(id) === true,
  }));
  return { plugin, groups };
}

const { plugin: chunkGroupsPlugin, groups: chunkGroupsList } = chunkGroups();

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react(), precompressAssets(), chunkGroupsPlugin],
  build: {
    outDir: fileURLToPath(new URL('./web/dist', import.meta.url)),
    emptyOutDir: true,
    // The first screens' budget is 150 kB of JS and CSS as transferred, the list's 250 kB
    // (web/first-load-size.test.ts reads this manifest to hold them; docs/benchmarks.md).
    manifest: true,
    // The shell (React, Mantine, React Router, TanStack Query) is ~610 kB minified; screens are
    // separate chunks. Warn when the first load grows past that.
    chunkSizeWarningLimit: 650,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically is one file: a dozen small shared chunks
          // each cost a request and ~1 kB of response headers on the first load. Then the
          // first screens' chunks (CHUNK_GROUPS).
          groups: [
            { name: 'index', tags: ['$initial'], priority: CHUNK_GROUPS.length + 1 },
            ...chunkGroupsList,
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      [apiPathPattern]: { target: apiTarget },
    },
  },
});
