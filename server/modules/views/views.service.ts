import type { Kysely } from 'kysely';
import { SAVED_VIEWS_PER_MEMBER_MAX } from '#shared/constants.ts';
import {
  type CreateSavedViewBody,
  SAVED_VIEWS_FULL_MESSAGE,
  type SavedView,
  type UpdateSavedViewBody,
} from '#shared/schemas/views.ts';
import { isUniqueViolation } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import { canEdit, presentView, type ViewRow as Row } from './view-presenter.ts';
import * as queries from './views.queries.ts';

const VIEW_NOT_FOUND = 'View not found';

/**
 * Saved views of the list (docs/product.md#saved-views). A member sees their own views and the
 * team's shared ones; another member's private view does not exist for them (404). Only the
 * owner changes a view, and an admin a shared one.
 */
export class SavedViewsService {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;

  constructor(deps: { db: Kysely<Database>; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  async list(viewer: Viewer): Promise<SavedView[]> {
    const rows = await queries.listVisibleViews(this.#db, viewer.id);
    return rows.map((row) => presentView(row, viewer));
  }

  async create(
    viewer: Viewer,
    body: Required<Pick<CreateSavedViewBody, 'name' | 'query'>> & { shared: boolean },
  ) {
    const now = isoNow(this.#clock);
    // At most SAVED_VIEWS_PER_MEMBER_MAX each: 200 shared views of 2 KB had made every member's
    // `GET /views` 436 KB (issue 22). Counted and inserted in one transaction that holds the
    // member, so parallel saves can't pass the cap together.
    const id = await this.#named(body.name, () =>
      this.#db.transaction().execute(async (trx) => {
        await queries.lockMember(trx, viewer.id);
        if ((await queries.countOwnViews(trx, viewer.id)) >= SAVED_VIEWS_PER_MEMBER_MAX) {
          throw badRequest(SAVED_VIEWS_FULL_MESSAGE);
        }
        return queries.insertView(trx, {
          user_id: viewer.id,
          name: body.name,
          name_lower: body.name.toLowerCase(),
          query: body.query,
          shared: body.shared ? 1 : 0,
          created_at: now,
          updated_at: now,
        });
      }),
    );
    return this.#get(viewer, id);
  }

  async update(viewer: Viewer, id: number, body: UpdateSavedViewBody & { query?: string }) {
    await this.#editable(viewer, id);
    await this.#named(body.name ?? '', () =>
      queries.updateView(this.#db, id, {
        ...(body.name !== undefined ? { name: body.name, name_lower: body.name.toLowerCase() } : {}),
        ...(body.query !== undefined ? { query: body.query } : {}),
        ...(body.shared !== undefined ? { shared: body.shared ? 1 : 0 } : {}),
        updated_at: isoNow(this.#clock),
      }),
    );
    // A view made private is no longer published: its public address answers 404 from now on.
    if (body.shared === false) await queries.deletePublication(this.#db, id);
    // Answered as changed, even when the change took it out of the caller's sight: an admin
    // making another member's shared view private got a 404 for a change that was made.
    const row = await queries.findView(this.#db, id);
    if (!row) throw notFound(VIEW_NOT_FOUND);
    return presentView(row, viewer);
  }

  /**
   * The view a member may publish or unpublish (docs/product.md#public-pages): one they may
   * change — its owner, or an admin for a shared one — with whether it is shared now.
   */
  async publishable(viewer: Viewer, id: number): Promise<{ id: number; shared: boolean }> {
    const row = await this.#editable(viewer, id);
    return { id: row.id, shared: row.shared === 1 };
  }

  async remove(viewer: Viewer, id: number): Promise<void> {
    await this.#editable(viewer, id);
    await queries.deleteView(this.#db, id);
  }

  async #get(viewer: Viewer, id: number): Promise<SavedView> {
    const row = await queries.findView(this.#db, id);
    if (!row || !visible(row, viewer)) throw notFound(VIEW_NOT_FOUND);
    return presentView(row, viewer);
  }

  async #editable(viewer: Viewer, id: number) {
    const row = await queries.findView(this.#db, id);
    if (!row || !visible(row, viewer)) throw notFound(VIEW_NOT_FOUND);
    if (!canEdit(row, viewer)) throw forbiddenEdit();
    return row;
  }

  /** A second view of the same name (any case) for one member is refused, not merged. */
  async #named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`You already have a view named “${name}”.`);
      throw error;
    }
  }
}

function visible(row: Row, viewer: Viewer): boolean {
  return row.user_id === viewer.id || row.shared === 1;
}

function forbiddenEdit() {
  return forbidden('Only the member who saved this view, or an admin for a shared view, can change it.');
}
