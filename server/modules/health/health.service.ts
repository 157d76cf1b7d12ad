import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** True when a trivial query answers within two seconds. */
export async function checkDatabase(db: Kysely<Database>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('database check timed out')), 2000);
    });
    await Promise.race([sql`select 1`.execute(db), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
