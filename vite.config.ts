import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server in development (`npm start` listens there by default, DESIGN §5). */
const apiTarget = 'http://127.0.0.1:3000';

/**
 * The API's path prefixes (the server's `API_PREFIXES`). Anchored so that only whole path
 * segments are proxied: a source module such as `/lib/api-client.ts` must stay with Vite.
 */
const apiPathPattern = '^/(auth|repositories|api|health|version|docs|tags)(/|\\?|$)';

export default defineConfig({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [react()],
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
