import type { QueuedResponse } from '#shared/schemas/repositories.ts';
import { RetryJobAt } from '../jobs/job-queue.ts';
import { addMs, type Clock } from '../lib/clock.ts';
import { GitHubError } from './github-error.ts';
import { PaceWait } from './pacer.ts';

/**
 * Work an interactive call could not do within GITHUB_INTERACTIVE_WAIT_MS because its token's
 * pace was spent (docs/product.md#github-pace): it is queued, and the answer says when it will
 * be done. Pacing never turns into a failure.
 */
export function queuedAnswer(eta: Date, what: string): QueuedResponse {
  const at = eta.toISOString();
  return {
    queued: true,
    eta: at,
    message: `GitHub asks us to slow down for now, so ${what} is queued and will be done by ${at.slice(11, 16)} UTC.`,
  };
}

/** When GitHub will take more, if the error says it won't now (pace, secondary limit or quota). */
export function paceEta(error: unknown, clock: Clock): Date | null {
  if (error instanceof PaceWait) return error.eta;
  if (error instanceof GitHubError && error.kind === 'rate_limited')
    return error.resetAt ?? addMs(clock.now(), 3600_000);
  return null;
}

/**
 * Background work that waits for its token's turn: when the turn is further away than an
 * attempt may wait, the job is put back for then without using an attempt, so pacing never
 * fails a job.
 */
export async function putBackWhenPaced<T>(work: () => Promise<T>, clock: Clock): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const eta = paceEta(error, clock);
    if (eta) throw new RetryJobAt(eta, 'waiting for GitHub’s pace');
    throw error;
  }
}
