import type { SavedView } from '#shared/schemas/views.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import type { findView } from './views.queries.ts';

/** A saved view as the queries read it (with its owner's username). */
export type ViewRow = NonNullable<Awaited<ReturnType<typeof findView>>>;

/** The owner changes a view; an admin a shared one. */
export function canEdit(row: ViewRow, viewer: Viewer): boolean {
  return row.user_id === viewer.id || (row.shared === 1 && viewer.is_admin);
}

/** A saved view as the API shows it to `viewer`. */
export function presentView(row: ViewRow, viewer: Viewer): SavedView {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    shared: row.shared === 1,
    owner: { id: row.user_id, username: row.username },
    can_edit: canEdit(row, viewer),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
