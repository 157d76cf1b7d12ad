import type { Generated } from 'kysely';
import type { Flag } from './schema-health.ts';

/** Saved views of the repository list (docs/product.md#saved-views), which public pages publish. */
export interface SavedViewTables {
  saved_views: SavedViewsTable;
}

export interface SavedViewsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  name_lower: string;
  query: string;
  shared: Flag;
  created_at: string;
  updated_at: string;
}

/**
 * The public pages module's table (docs/product.md#public-pages): what is published, where, with
 * which fields, by whom. `Database` in schema.ts extends `SavedViewTables` and `PublicPageTables`.
 */
export interface PublicPageTables {
  public_pages: PublicPagesTable;
}

export interface PublicPagesTable {
  id: Generated<number>;
  /** The address's unguessable part: 32 random bytes, base64url. */
  slug: string;
  kind: 'view' | 'radar';
  view_id: number | null;
  edition_id: number | null;
  /** A view's fields, comma-separated; '' for an edition. */
  fields: string;
  include_rationales: number;
  published_by: number;
  published_at: string;
}
