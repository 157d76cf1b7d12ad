/**
 * The one time source of the server (docs/architecture.md#clock). Production code reads "now"
 * only through an injected `Clock` and builds dates only through the helpers below, so tests
 * move time with a fake clock and a structure test can prove nothing reads the system time
 * behind the clock's back.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO-8601 UTC, the one timestamp format stored and answered. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** Milliseconds since the epoch, on the clock (deadlines, windows). */
export function nowMs(clock: Clock): number {
  return clock.now().getTime();
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

/** The instant `ms` milliseconds after the epoch. */
export function dateAtMs(ms: number): Date {
  return new Date(ms);
}

/** A stored or received timestamp (ISO-8601, or anything `Date` parses) as a `Date`. */
export function parseTime(value: string | number): Date {
  return new Date(value);
}
