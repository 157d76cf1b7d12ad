import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Every account with a sealed GitHub token or Slack webhook. */
export async function listSealedSecrets(db: Kysely<Database>) {
  return db
    .selectFrom('users')
    .select(['id', 'github_token_enc', 'slack_webhook_enc'])
    .where((eb) => eb.or([eb('github_token_enc', 'is not', null), eb('slack_webhook_enc', 'is not', null)]))
    .execute();
}
