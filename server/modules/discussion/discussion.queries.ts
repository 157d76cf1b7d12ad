import type { Insertable, Kysely } from 'kysely';
import type { CommentsTable, Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

export async function listComments(db: Db, repositoryId: number) {
  return db
    .selectFrom('comments')
    .select(['id', 'author', 'comment', 'created_at', 'user_id'])
    .where('repository_id', '=', repositoryId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertComment(db: Db, comment: Insertable<CommentsTable>) {
  return db
    .insertInto('comments')
    .values(comment)
    .returning(['id', 'author', 'comment', 'created_at', 'user_id'])
    .executeTakeFirstOrThrow();
}
