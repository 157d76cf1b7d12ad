import type { Clock } from '../../server/lib/clock.ts';

/** A clock tests move by hand: token expiry without waiting. */
export function createFakeClock(
  start = new Date(),
): Clock & { advance(seconds: number): void; reset(): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(seconds: number) {
      current += seconds * 1000;
    },
    reset() {
      current = Date.now();
    },
  };
}
