import { Redis } from 'ioredis';

/** Redis answers on a LAN in milliseconds; waiting longer only slows every call that uses it. */
export const REDIS_CONNECT_TIMEOUT_MS = 500;
export const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A connection for state several instances share (login attempt counters, GitHub's pace).
 * Every user of it has an in-memory fallback, so it fails at once while disconnected instead of
 * queueing commands, and keeps reconnecting in the background, at most a second apart.
 */
export function openRedis(url: string): Redis {
  return new Redis(url, {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 50, 1000),
  });
}
