import { describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock.ts';
import { GitHubPacer, PACE_WINDOW_S, PaceWait } from './pacer.ts';

const soon = () => Date.now() + 100;

describe('GitHubPacer (memory)', () => {
  it('lets a tenth of the per-minute pace leave per window, then says when the next turn is', async () => {
    const pacer = new GitHubPacer({ restPerMinute: 30, graphqlPointsPerMinute: 20, clock: systemClock });
    for (let i = 0; i < 3; i++) await pacer.take('token-a', 'rest', 1, soon());
    const before = Date.now();
    const wait = await pacer.take('token-a', 'rest', 1, soon()).catch((error: unknown) => error);
    expect(wait).toBeInstanceOf(PaceWait);
    const eta = (wait as PaceWait).eta.getTime();
    expect(eta).toBeGreaterThan(before);
    expect(eta).toBeLessThanOrEqual(before + PACE_WINDOW_S * 1000 + 50);
    // Other tokens and the GraphQL budget are separate.
    await pacer.take('token-b', 'rest', 1, soon());
    await pacer.take('token-a', 'graphql', 1, soon());
    expect(pacer.restLastMinute('token-a')).toBe(3);
    expect(pacer.restLastMinute('token-b')).toBe(1);
  });

  it('waits for the turn when the deadline allows', async () => {
    let slept = 0;
    const pacer = new GitHubPacer({
      restPerMinute: 10,
      graphqlPointsPerMinute: 10,
      clock: systemClock,
      // No real 6 s wait: "sleeping" replaces the spent window with a 10 ms one, as if it had ended.
      sleep: async (ms) => {
        slept = ms;
        await pacer.pause('token', 0.01);
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    await pacer.take('token', 'rest', 1, soon());
    await pacer.take('token', 'rest', 1, Date.now() + 60_000);
    expect(slept).toBeGreaterThan(0);
    expect(slept).toBeLessThanOrEqual(PACE_WINDOW_S * 1000);
  });

  it('a pause (a secondary-limit answer) stops REST and GraphQL for the token until it ends', async () => {
    const pacer = new GitHubPacer({ restPerMinute: 800, graphqlPointsPerMinute: 1800, clock: systemClock });
    await pacer.pause('token', 5000);
    for (const kind of ['rest', 'graphql'] as const) {
      const wait = await pacer.take('token', kind, 1, soon()).catch((error: unknown) => error);
      expect(wait).toBeInstanceOf(PaceWait);
      expect((wait as PaceWait).eta.getTime()).toBeGreaterThan(Date.now() + 4000);
    }
    expect((await pacer.nextTurn('token')).getTime()).toBeGreaterThan(Date.now() + 4000);
    await pacer.take('other-token', 'rest', 1, soon());
  });

  it('never puts more than the pace × 1.1 into any 60-second span', () => {
    // 60 s overlaps at most 11 windows of 6 s; each admits a tenth of the pace.
    const perWindow = Math.floor(800 / (60 / PACE_WINDOW_S));
    expect(perWindow * (60 / PACE_WINDOW_S + 1)).toBeLessThanOrEqual(900);
  });
});
