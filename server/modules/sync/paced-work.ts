import type { QueuedResponse } from '../../../shared/schemas/repositories.ts';

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
