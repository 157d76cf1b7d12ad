import type { Generated } from 'kysely';

/**
 * The public pages module's table (docs/product.md#public-pages): what is published, where, with
 * which fields, by whom. `Database` in schema.ts extends `PublicPageTables`.
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
