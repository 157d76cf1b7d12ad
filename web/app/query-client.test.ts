import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE } from '#web/lib/api-client.ts';
import { createQueryClient, RETRY_DELAY_MS } from './query-client.ts';

/** Settles with the outcome, or 'still waiting' after `ms` (a paused query or mutation never settles). */
function outcome(promise: Promise<unknown>, ms = 1_500): Promise<string> {
  return Promise.race([
    promise.then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.message}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), ms)),
  ]);
}

afterEach(() => onlineManager.setOnline(true));

describe('the app query client', () => {
  it('reports failures while the browser says it is offline instead of pausing (Export)', async () => {
    onlineManager.setOnline(false);
    const client = createQueryClient();
    const offline = () => Promise.reject(new ApiError(NETWORK_ERROR_MESSAGE, 0));
    const mutation = client.getMutationCache().build(client, { mutationFn: offline });
    expect(await outcome(mutation.execute(undefined))).toBe(`rejected: ${NETWORK_ERROR_MESSAGE}`);
    expect(await outcome(client.fetchQuery({ queryKey: ['list'], queryFn: offline }))).toBe(
      `rejected: ${NETWORK_ERROR_MESSAGE}`,
    );
  });

  it('retries a failed load once, soon, and a 4xx never', async () => {
    const client = createQueryClient();
    let calls = 0;
    const started = Date.now();
    const serverError = () => {
      calls += 1;
      return Promise.reject(new ApiError('Internal error', 500));
    };
    expect(await outcome(client.fetchQuery({ queryKey: ['a'], queryFn: serverError }))).toBe(
      'rejected: Internal error',
    );
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(RETRY_DELAY_MS);

    calls = 0;
    const notFound = () => {
      calls += 1;
      return Promise.reject(new ApiError('Not found', 404));
    };
    expect(await outcome(client.fetchQuery({ queryKey: ['b'], queryFn: notFound }))).toBe(
      'rejected: Not found',
    );
    expect(calls).toBe(1);
  });
});
