import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { WAIT_CEILING_MS } from './test/helpers/wait-ceiling.ts';

/**
 * Three projects: `node` (unit and integration tests of shared/, server/ and test/ doubles),
 * `node-isolated` (the few of them that replace a module with vi.mock, each in a module graph of
 * its own) and `web` (component tests under happy-dom). TEST_DB=postgres reruns the node
 * project against PostgreSQL (see scripts/test.ts).
 *
 * A wait for something to happen gives up after WAIT_CEILING_MS (20 s), not the tools' 1 s:
 * `expect.poll` here, Testing Library's `findBy*`/`waitFor` in test/web/setup.ts. The tests' own
 * time-outs stay well above it, so a wait that gives up reports what it waited for.
 *
 * Files run on at least two workers, one per core beyond the first on larger machines: most
 * test files spend their time waiting (a GitHub double's latency, a deadline, a child process,
 * a flushed commit), so on the 2-core machine the default single worker left a core idle —
 * two workers took the SQLite pass from 473 to 276 s and the PostgreSQL pass from 310 to 158 s
 * (docs/decisions.md, "The test command within 20 minutes"). Tests hold under the extra load
 * by design: waits have ceilings, deadlines come from configuration.
 */
const NODE_TESTS = [
  'shared/**/*.test.ts',
  'server/**/*.test.ts',
  'test/**/*.test.ts',
  'scripts/**/*.test.ts',
];
const MODULE_MOCKING_TESTS = ['server/lib/response-serializer.test.ts'];
const nodeTests = {
  environment: 'node',
  testTimeout: 3 * WAIT_CEILING_MS,
  hookTimeout: 3 * WAIT_CEILING_MS,
  expect: { poll: { timeout: WAIT_CEILING_MS } },
} as const;

export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          ...nodeTests,
          // Negated here, not in `exclude`: a project's own exclude list would replace the
          // test command's --exclude arguments (scripts/test.ts) instead of adding to them.
          include: [...NODE_TESTS, ...MODULE_MOCKING_TESTS.map((file) => `!${file}`)],
          // Files share a worker's modules instead of importing the app afresh each (the SQLite
          // pass 358 s → 289 s on two cores, import 14% → 1% of it): every file builds its own
          // apps, databases and doubles, and nothing here replaces a module but the files below.
          isolate: false,
        },
      },
      {
        // Files that replace a module (vi.mock) get a module graph of their own.
        test: { name: 'node-isolated', ...nodeTests, include: MODULE_MOCKING_TESTS },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['web/**/*.test.tsx', 'web/**/*.test.ts'],
          setupFiles: ['test/web/setup.ts'],
          testTimeout: 3 * WAIT_CEILING_MS,
          expect: { poll: { timeout: WAIT_CEILING_MS } },
          // Files share a worker instead of a fresh one each (128 s → 81 s on two cores): the setup
          // file, which runs before every file, resets the DOM, storage, mocks, routers, the
          // window's width and the notifications after each test.
          isolate: false,
        },
      },
    ],
  },
});
