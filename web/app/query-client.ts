import { QueryClient } from '@tanstack/react-query';
import { describeApiError } from '#web/lib/api-errors.ts';

/**
 * Retries once, quickly, only what may heal by itself: time-outs, network failures and 5xx, not
 * 4xx. TanStack's default (three tries with 1 s, 2 s, 4 s waits) kept a failed list load silent
 * for ~4.7 s before the screen said anything; the screens offer Retry instead.
 */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  const { kind, transient } = describeApiError(error);
  return kind === 'unexpected' || transient;
}
export const RETRY_DELAY_MS = 300;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // networkMode 'always': every call has its own deadline and says what went wrong. TanStack's
      // default pauses queries and mutations while the browser reports being offline, which left
      // Export on 'Exporting...' with no message until the network came back.
      queries: {
        retry: shouldRetry,
        retryDelay: RETRY_DELAY_MS,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
        networkMode: 'always',
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
