import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import * as queries from './discussion.queries.ts';

export interface DiscussionDeps {
  db: Kysely<Database>;
  clock: Clock;
}

/** The team's comments on a repository (docs/product.md#repositories-api): anyone who may see it comments. */
export class DiscussionService {
  readonly #deps: DiscussionDeps;

  constructor(deps: DiscussionDeps) {
    this.#deps = deps;
  }

  async addComment(viewer: Viewer, fullName: string, comment: string, author: string) {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    return queries.insertComment(this.#deps.db, {
      repository_id: row.id,
      user_id: viewer.id,
      author,
      comment,
      created_at: isoNow(this.#deps.clock),
    });
  }

  /** A repository's comments, oldest first, for its detail answer. */
  async commentsOf(repositoryId: number) {
    return queries.listComments(this.#deps.db, repositoryId);
  }
}
