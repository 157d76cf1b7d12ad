import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Two projects: `node` (unit and integration tests of shared/, server/ and test/ doubles)
 * and `web` (component tests under happy-dom). TEST_DB=postgres reruns the node project
 * against PostgreSQL (see scripts/test.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'shared/**/*.test.ts',
            'server/**/*.test.ts',
            'test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['web/**/*.test.tsx', 'web/**/*.test.ts'],
          setupFiles: ['test/web/setup.ts'],
          testTimeout: 20_000,
          // Files share a worker instead of a fresh one each (128 s → 81 s on two cores): the setup
          // file, which runs before every file, resets the DOM, storage, mocks, routers, the
          // window's width and the notifications after each test.
          isolate: false,
        },
      },
    ],
  },
});
