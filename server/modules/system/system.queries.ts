import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Rows of the durable job queue by kind and status (finished ones are kept 14 days). */
export function countJobsByKindAndStatus(db: Kysely<Database>) {
  return db
    .selectFrom('jobs')
    .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['kind', 'status'])
    .execute();
}

/** Jobs waiting for a worker now (due, not taken), by kind. */
export function countDueJobsByKind(db: Kysely<Database>, now: string) {
  return db
    .selectFrom('jobs')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('count')])
    .where('status', '=', 'pending')
    .where('run_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
    .groupBy('kind')
    .execute();
}

/** The sync engine's queue: repositories due for a refresh and not taken, and those a run holds. */
export async function countSyncQueue(db: Kysely<Database>, now: string) {
  const row = await db
    .selectFrom('repository_sync_state')
    .select((eb) => [
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(
              eb.and([
                eb('due_at', '<=', now),
                eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', now)]),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('due'),
      eb.fn.sum<number>(eb.case().when('leased_until', '>', now).then(1).else(0).end()).as('leased'),
    ])
    .executeTakeFirst();
  return { due: Number(row?.due ?? 0), leased: Number(row?.leased ?? 0) };
}
