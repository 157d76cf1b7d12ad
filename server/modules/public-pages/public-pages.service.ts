import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { catalogueListQuerySchema } from '#shared/schemas/catalogue.ts';
import {
  PUBLIC_PAGE_FIELDS,
  PUBLIC_PAGE_ROWS,
  PUBLIC_PAGES_OFF_MESSAGE,
  PUBLISH_PRIVATE_VIEW_MESSAGE,
  type Publication,
  type PublicPageField,
  type PublicPageListItem,
  type PublicPageRow,
  type PublicRadarPage,
  type PublicViewPage,
  type PublishEditionBody,
  type PublishViewBody,
} from '#shared/schemas/public-pages.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { badRequest, notFound } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { etagOf } from '../../lib/etag.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { CatalogueQueryService } from '../catalogue-query/catalogue-query.service.ts';
import type { SavedViewsService } from '../views/views.service.ts';
import * as queries from './public-pages.queries.ts';

export const PAGE_NOT_FOUND = 'Page not found';
const EDITION_NOT_FOUND = 'Radar edition not found';

export interface PublicPagesDeps {
  db: Kysely<Database>;
  clock: Clock;
  config: AppConfig;
  catalogueQuery: CatalogueQueryService;
  savedViews: SavedViewsService;
  activity: ActivityService;
}

/** A public page's body with its ETag and the time it last changed. */
export interface Rendered<T> {
  page: T;
  etag: string;
}

/**
 * Public pages (docs/product.md#public-pages): a shared view or a radar edition published at an
 * unguessable address (32 random bytes), read by anyone as an anonymous member would see it —
 * no private repository, whatever its publisher may see. Off (every call 404) unless PUBLIC_PAGES=on.
 */
export class PublicPagesService {
  readonly #deps: PublicPagesDeps;

  constructor(deps: PublicPagesDeps) {
    this.#deps = deps;
  }

  // ---- publishing ------------------------------------------------------------------------------

  async viewPublication(viewer: Viewer, viewId: number): Promise<Publication | null> {
    this.#on();
    await this.#editableView(viewer, viewId);
    const row = await queries.findByView(this.#deps.db, viewId);
    return row ? this.#present(row) : null;
  }

  async publishView(viewer: Viewer, viewId: number, body: PublishViewBody): Promise<Publication> {
    this.#on();
    const view = await this.#editableView(viewer, viewId);
    if (!view.shared) throw badRequest(PUBLISH_PRIVATE_VIEW_MESSAGE);
    // In the contract's order, whatever order they were ticked in.
    const fields = PUBLIC_PAGE_FIELDS.filter((field) => body.fields.includes(field));
    const row = await queries.replacePage(this.#deps.db, {
      slug: newSlug(),
      kind: 'view',
      view_id: viewId,
      edition_id: null,
      fields: fields.join(','),
      include_rationales: 0,
      published_by: viewer.id,
      published_at: this.#deps.clock.now().toISOString(),
    });
    return this.#present(row);
  }

  async unpublishView(viewer: Viewer, viewId: number): Promise<void> {
    this.#on();
    await this.#editableView(viewer, viewId);
    await queries.deleteByView(this.#deps.db, viewId);
  }

  async editionPublication(editionId: number): Promise<Publication | null> {
    this.#on();
    await this.#edition(editionId);
    const row = await queries.findByEdition(this.#deps.db, editionId);
    return row ? this.#present(row) : null;
  }

  async publishEdition(admin: Viewer, editionId: number, body: PublishEditionBody): Promise<Publication> {
    this.#on();
    await this.#edition(editionId);
    const row = await queries.replacePage(this.#deps.db, {
      slug: newSlug(),
      kind: 'radar',
      view_id: null,
      edition_id: editionId,
      fields: '',
      include_rationales: body.include_rationales ? 1 : 0,
      published_by: admin.id,
      published_at: this.#deps.clock.now().toISOString(),
    });
    return this.#present(row);
  }

  async unpublishEdition(editionId: number): Promise<void> {
    this.#on();
    await this.#edition(editionId);
    await queries.deleteByEdition(this.#deps.db, editionId);
  }

  /** `GET /public-pages`: everything published, for admins (fallen pages removed first). */
  async list(): Promise<PublicPageListItem[]> {
    this.#on();
    await queries.deleteFallen(this.#deps.db);
    const rows = await queries.listPages(this.#deps.db);
    return rows.map((row) => ({
      ...this.#present(row),
      id: row.id,
      kind: row.kind,
      target_id: (row.kind === 'view' ? row.view_id : row.edition_id) ?? 0,
      title: (row.kind === 'view' ? row.view_name : row.edition_name) ?? '',
      published_by: row.username,
    }));
  }

  async unpublish(id: number): Promise<void> {
    this.#on();
    if ((await queries.deleteById(this.#deps.db, id)) === 0) throw notFound(PAGE_NOT_FOUND);
  }

  // ---- reading -----------------------------------------------------------------------------------

  /** `/p/{slug}`: the view's first rows, public repositories only, the chosen fields only. */
  async viewPage(slug: string): Promise<Rendered<PublicViewPage>> {
    const { row, fields, total, summaries, idsByName } = await this.#viewRows(slug);
    const versions = fields.includes('release')
      ? await queries.latestVersions(this.#deps.db, [...idsByName.values()])
      : new Map<number, { version: string; date: string | null }>();
    const body: PublicViewPage = {
      title: row.view_name ?? '',
      published_at: row.published_at,
      fields,
      total,
      repositories: summaries.map((summary) => {
        const out: PublicPageRow = { name: summary.id, url: summary.url };
        if (fields.includes('description')) out.description = summary.description;
        if (fields.includes('stars')) out.stars = summary.stars;
        if (fields.includes('growth')) out.stars_30d = summary.growth.stars_30d;
        if (fields.includes('health'))
          out.health = { grade: summary.health.grade, score: summary.health.score };
        if (fields.includes('status')) out.status = summary.decision?.status ?? null;
        if (fields.includes('release')) out.release = versions.get(idsByName.get(summary.id) ?? 0) ?? null;
        if (fields.includes('tags')) out.tags = splitList(summary.tags);
        if (fields.includes('notes')) out.notes = summary.notes;
        return out;
      }),
    };
    return { page: body, etag: etagOf(JSON.stringify(body)) };
  }

  /** `/p/{slug}.atom`: what GitHub did in the page's repositories, newest first. */
  async viewAtom(slug: string): Promise<Rendered<string>> {
    const publicUrl = this.#deps.config.publicUrl;
    const { row, idsByName } = await this.#viewRows(slug);
    const atom = await this.#deps.activity.publicAtom([...idsByName.values()], {
      id: `public-page/${slug}`,
      title: `${this.#deps.config.appName}: ${row.view_name ?? ''}`,
      self: `${publicUrl}/p/${slug}.atom`,
      alternate: `${publicUrl}/p/${slug}`,
      now: row.published_at,
    });
    return { page: atom, etag: etagOf(atom) };
  }

  /** `/p/radar/{slug}`: the edition's blips of public repositories; rationales only when ticked. */
  async radarPage(slug: string): Promise<Rendered<PublicRadarPage>> {
    this.#found();
    const row = await queries.findBySlug(this.#deps.db, slug);
    if (row?.kind !== 'radar' || row.edition_id === null || row.publisher_active !== 1)
      throw notFound(PAGE_NOT_FOUND);
    const [quadrants, entries] = await Promise.all([
      queries.editionQuadrants(this.#deps.db, row.edition_id),
      queries.publicEditionEntries(this.#deps.db, row.edition_id),
    ]);
    const order = new Map(quadrants.map((quadrant, index) => [quadrant.key, index]));
    const rings = ['adopt', 'trial', 'assess', 'hold', 'retired'];
    const sorted = [...entries].sort(
      (a, b) =>
        (order.get(a.quadrant) ?? 9) - (order.get(b.quadrant) ?? 9) ||
        rings.indexOf(a.status) - rings.indexOf(b.status) ||
        a.full_name.localeCompare(b.full_name),
    );
    const body: PublicRadarPage = {
      title: row.edition_name ?? '',
      published_at: row.published_at,
      quadrants: quadrants.map(({ key, name }) => ({ key, name })),
      blips: sorted.map((entry, index) => ({
        number: index + 1,
        name: entry.full_name,
        url: `https://github.com/${entry.full_name}`,
        quadrant: entry.quadrant,
        ring: entry.status,
        ...(row.include_rationales === 1 ? { rationale: entry.rationale } : {}),
      })),
    };
    return { page: body, etag: etagOf(JSON.stringify(body)) };
  }

  async #viewRows(slug: string) {
    this.#found();
    const row = await queries.findBySlug(this.#deps.db, slug);
    if (
      row?.kind !== 'view' ||
      row.view_query === null ||
      row.view_shared !== 1 ||
      row.owner_active !== 1 ||
      row.publisher_active !== 1
    ) {
      // A view made private or an account deactivated since: the page is gone for good.
      if (row) await queries.deleteById(this.#deps.db, row.id);
      throw notFound(PAGE_NOT_FOUND);
    }
    const fields = parseFields(row.fields);
    const params = Object.fromEntries(new URLSearchParams(row.view_query));
    delete params.view;
    delete params.per_row;
    const query = catalogueListQuerySchema.parse({ ...params, limit: PUBLIC_PAGE_ROWS });
    // "Added by me" is the publisher; private repositories are out whatever the publisher sees.
    const reader: Viewer = { id: row.published_by, is_admin: false, public_only: true };
    const result = await this.#deps.catalogueQuery.page(reader, query);
    const idsByName = await this.#repositoryIds(result.repositories.map((summary) => summary.id));
    return { row, fields, total: result.total, summaries: result.repositories, idsByName };
  }

  async #repositoryIds(fullNames: readonly string[]): Promise<Map<string, number>> {
    if (fullNames.length === 0) return new Map();
    // Through the lower(full_name) index alone (names are unique in any case, and these are the
    // page's public rows): `full_name in (…)`, or a `private` condition beside it, read every row.
    const rows = await this.#deps.db
      .selectFrom('repositories')
      .select(['id', 'full_name'])
      .where(
        sql`lower(full_name)`,
        'in',
        fullNames.map((name) => name.toLowerCase()),
      )
      .execute();
    return new Map(rows.map((row) => [row.full_name, row.id]));
  }

  #present(row: queries.PublicPageRow): Publication {
    const path = row.kind === 'view' ? `/p/${row.slug}` : `/p/radar/${row.slug}`;
    return {
      url: `${this.#deps.config.publicUrl}${path}`,
      fields: parseFields(row.fields),
      include_rationales: row.include_rationales === 1,
      published_at: row.published_at,
    };
  }

  #editableView(viewer: Viewer, viewId: number) {
    return this.#deps.savedViews.publishable(viewer, viewId);
  }

  async #edition(editionId: number) {
    const edition = await this.#deps.db
      .selectFrom('radar_editions')
      .select('id')
      .where('id', '=', editionId)
      .executeTakeFirst();
    if (!edition) throw notFound(EDITION_NOT_FOUND);
  }

  /** Publishing while PUBLIC_PAGES=off: 404, with the reason for the member who asked. */
  #on() {
    if (!this.#deps.config.publicPages) throw notFound(PUBLIC_PAGES_OFF_MESSAGE);
  }

  /** A page while PUBLIC_PAGES=off: the same 404 as a wrong address. */
  #found() {
    if (!this.#deps.config.publicPages) throw notFound(PAGE_NOT_FOUND);
  }
}

/** 32 random bytes, base64url: 43 characters no one guesses. */
function newSlug(): string {
  return randomBytes(32).toString('base64url');
}

function parseFields(value: string): PublicPageField[] {
  const listed = value.split(',');
  return PUBLIC_PAGE_FIELDS.filter((field) => listed.includes(field));
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
