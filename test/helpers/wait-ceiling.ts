/**
 * How long a test waits for something to happen before it gives up
 * (docs/decisions.md#tests-on-a-busy-machine-issue-23): the default of `expect.poll`
 * (vitest.config.ts) and of Testing Library's `findBy*` and `waitFor` (test/web/setup.ts), and
 * the unit of the longer waits the node tests spell out. Twenty times the tools' 1 s: with other
 * work on two cores (load 15 to 18) a screen's first render, which compiles its modules, took 12 s,
 * and a higher ceiling costs nothing when the test passes. Never a sleep: every wait ends as soon
 * as its condition holds.
 */
export const WAIT_CEILING_MS = 20_000;
