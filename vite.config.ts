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
const apiPathPattern = '^/(auth|repositories|api|health|version|docs|tags)(/|\\?|$)';

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

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react(), precompressAssets()],
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
          // each cost a request and ~1 kB of response headers on the first load.
          groups: [{ name: 'index', tags: ['$initial'] }],
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
