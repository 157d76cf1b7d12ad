/** Injectable time source, so token expiry and rate windows can be tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO-8601 UTC, the one timestamp format stored and answered. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
