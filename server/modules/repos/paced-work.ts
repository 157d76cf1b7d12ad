import type { Kysely } from 'kysely';
import type { QueuedResponse } from '../../../shared/schemas/repositories.ts';
import type { Database } from '../../db/schema.ts';

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

/** A member's "Update" that has to wait: the sync engine takes the repository when it is due. */
export async function dueAt(db: Kysely<Database>, repositoryId: number, eta: Date): Promise<void> {
  await db
    .insertInto('repository_sync_state')
    .values({ repository_id: repositoryId, due_at: eta.toISOString(), failures: 0 })
    .onConflict((conflict) => conflict.column('repository_id').doUpdateSet({ due_at: eta.toISOString() }))
    .execute();
}
