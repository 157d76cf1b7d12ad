import { type Kysely, type RawBuilder, sql } from 'kysely';
import { CONTRIBUTORS_CAP, RECENTLY_UPDATED_DAYS, TAG_SUGGESTIONS_MAX } from '#shared/constants.ts';
import { displayLicense } from '#shared/format.ts';
import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '#shared/schemas/advisories.ts';
import {
  CATALOGUE_PAGE_DEFAULT,
  type CatalogueCounts,
  type CatalogueExportQuery,
  type CatalogueFilters,
  type CatalogueListQuery,
  type CatalogueStats,
  FASTEST_GROWING_LIMIT,
  type NameCount,
  type RepositoryPage,
  type TagsResponse,
} from '#shared/schemas/catalogue.ts';
import { HEALTH_GRADES, type HealthGrade } from '#shared/schemas/health.ts';
import type { Repository, RepositorySummary } from '#shared/schemas/repositories.ts';
import { STAR_BUCKETS } from '#shared/stats.ts';
import type { CopyOut, Dialect } from '../../db/database.ts';
import { isPostgres } from '../../db/migration-helpers.ts';
import type { Database, RepositoryListRow } from '../../db/schema.ts';
import { notFound } from '../../lib/app-error.ts';
import { addMs, type Clock, dateAtMs } from '../../lib/clock.ts';
import {
  findVisible,
  REPOSITORY_NOT_FOUND,
  resolveVisible,
  type Viewer,
  visibleTo,
} from '../../repository/access-policy.ts';
import { presentRepository, presentSummary } from '../../repository/repository-presenter.ts';
import { hasFilters, type NormalizedFilters, normalizeFilters } from './catalogue-filters.ts';
import {
  applyFilters,
  countDecisionStatuses,
  countMatching,
  decodePageCursor,
  encodePageCursor,
  fetchPage,
  type IdSetUse,
  idSetUseFor,
  isLargeIdSet,
  matchingIds,
  resolveSort,
} from './catalogue-query.queries.ts';
import type { ExportBatch } from './csv-export.ts';
import { type ExportReads, exportBatches } from './export-batches.ts';
import {
  findRepositoryWithCounts,
  findSummary,
  listAllRepositories,
  listVisibleRepositories,
} from './repository-list.queries.ts';

/** What a repository's detail answer adds to its row, from the modules that own it. */
export interface RepositoryDetailParts {
  commentsOf(repositoryId: number): Promise<Repository['comments']>;
  versionsOf(repositoryId: number): Promise<Repository['versions']>;
  tracking(repositoryId: number): Promise<Repository['release_tracking']>;
}

export interface CatalogueQueryDeps {
  db: Kysely<Database>;
  clock: Clock;
  details: RepositoryDetailParts;
  /** Which database: the export reads each its own way (export-batches.ts). */
  dialect: Dialect;
  /** PostgreSQL: `DatabaseHandle.copyOut`, through which the export reads its records. */
  copyOut?: CopyOut;
  /** Rows per database read while exporting, instead of the dialect's (tests: a small one). */
  exportBatchSize?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const TOP_TOPICS = 10;
const NO_FILTERS = normalizeFilters({});

/** Names as the screens list them: case- and accent-insensitive, numbers by value; code points break ties. */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const byName = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
const byCountThenName = (a: NameCount, b: NameCount) => b.count - a.count || byName(a.name, b.name);

/**
 * The catalogue as the screens read it (docs/product.md#catalogue-queries): pages, the export
 * stream, statistics, tag counts and sidebar counts, all computed by the database and all
 * limited to what the viewer may see.
 */
export class CatalogueQueryService {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  readonly #exportReads: ExportReads;
  readonly #details: RepositoryDetailParts;

  constructor(deps: CatalogueQueryDeps) {
    this.#db = deps.db;
    this.#details = deps.details;
    this.#clock = deps.clock;
    this.#exportReads = {
      db: deps.db,
      dialect: deps.dialect,
      copyOut: deps.copyOut,
      batchSize: deps.exportBatchSize,
    };
  }

  /** `GET /repositories/` without parameters (SPEC's first form): every repository the viewer may see. */
  async list(viewer: Viewer): Promise<RepositorySummary[]> {
    return (await listVisibleRepositories(this.#db, viewer)).map(presentSummary);
  }

  /** The admin's whole list, private repositories included. */
  async listAll(): Promise<RepositorySummary[]> {
    return (await listAllRepositories(this.#db)).map(presentSummary);
  }

  async exists(viewer: Viewer, fullName: string): Promise<boolean> {
    return (await findVisible(this.#db, viewer, fullName)) !== undefined;
  }

  /** `GET /repositories/{id}`: the detail answer, 404 for a name the viewer may not see. */
  async get(viewer: Viewer, fullName: string): Promise<Repository> {
    return this.present((await resolveVisible(this.#db, viewer, fullName)).id);
  }

  /** The detail answer of a repository (after an add, an update, a restore): the row with its comments, versions and release tracking. */
  async present(id: number): Promise<Repository> {
    const row = await findRepositoryWithCounts(this.#db, id);
    if (!row) throw notFound(REPOSITORY_NOT_FOUND);
    const [comments, versions, releaseTracking] = await Promise.all([
      this.#details.commentsOf(id),
      this.#details.versionsOf(id),
      this.#details.tracking(id),
    ]);
    return presentRepository(row, { comments, versions, release_tracking: releaseTracking });
  }

  /**
   * `POST /repositories/export`: the selected repositories the viewer may see, in the order
   * given, each once, as list rows in batches of one.
   */
  async *exportSelection(viewer: Viewer, items: readonly string[]): AsyncGenerator<RepositoryListRow[]> {
    for (const fullName of new Set(items)) {
      const row = await findVisible(this.#db, viewer, fullName);
      const summary = row ? await findSummary(this.#db, row.id) : undefined;
      if (summary) yield [summary];
    }
  }

  /** One page of `GET /repositories/` (and of the admin list, with an admin viewer). */
  async page(viewer: Viewer, query: CatalogueListQuery): Promise<RepositoryPage> {
    const filters = normalizeFilters(query);
    const sort = resolveSort(query);
    const position = query.cursor ? decodePageCursor(query.cursor, filters, sort) : null;
    const limit = query.limit ?? CATALOGUE_PAGE_DEFAULT;
    // The count first: it tells the page query how to use the search and label filters.
    const total = await countMatching(this.#db, viewer, filters);
    const { rows, next } = await fetchPage(
      this.#db,
      viewer,
      filters,
      sort,
      limit,
      position,
      idSetUseFor(filters, total),
    );
    return {
      repositories: rows.map(presentSummary),
      total,
      next_cursor: next ? encodePageCursor(filters, sort, next) : null,
    };
  }

  /** Every matching repository in list order, a batch per database read (export-batches.ts). */
  exportBatches(viewer: Viewer, query: CatalogueExportQuery): AsyncGenerator<ExportBatch> {
    return exportBatches(this.#exportReads, viewer, query);
  }

  /** `GET /repositories/stats`: the statistics screen over the filtered repositories. */
  async stats(viewer: Viewer, query: CatalogueFilters): Promise<CatalogueStats> {
    const filters = normalizeFilters(query);
    const filtered = hasFilters(filters);
    const [
      cards,
      licenses,
      topics,
      catalogueTotal,
      optionTags,
      allLicenses,
      allTopics,
      grades,
      advisories,
      statuses,
    ] = await Promise.all([
      this.#cards(viewer, filters),
      this.#licenses(viewer, filters),
      this.#labelCounts('repository_topics', viewer, filters),
      filtered ? countMatching(this.#db, viewer, NO_FILTERS) : null,
      this.#labelCounts('repository_tags', viewer, NO_FILTERS),
      filtered ? this.#licenses(viewer, NO_FILTERS) : null,
      filtered ? this.#labelCounts('repository_topics', viewer, NO_FILTERS) : null,
      this.#healthGrades(viewer, filters),
      this.#openAdvisories(viewer, filters),
      countDecisionStatuses(this.#db, viewer, filters),
    ]);
    const total = cards.total;
    const fastestGrowing = await this.#fastestGrowing(viewer, filters, total);
    return {
      catalogue_total: catalogueTotal ?? total,
      cards: {
        total_repositories: total,
        total_stars: cards.stars,
        average_stars: total === 0 ? 0 : Math.round((cards.stars / total) * 10) / 10,
        total_forks: cards.forks,
        total_issues: cards.issues,
        total_commits: cards.commits,
        total_contributors: cards.contributors,
        recently_updated: cards.recent,
        with_license: cards.withLicense,
        license_coverage: total === 0 ? 0 : Math.round((cards.withLicense / total) * 100),
        most_common_license: licenses[0] ?? null,
      },
      licenses,
      // Topics are named by their lower-cased key, as the chart always showed them.
      top_topics: topics
        .map((topic) => ({ name: topic.key, count: topic.count }))
        .sort(byCountThenName)
        .slice(0, TOP_TOPICS),
      fastest_growing: fastestGrowing,
      health_grades: grades,
      decision_statuses: statuses,
      open_advisories: advisories,
      star_buckets: STAR_BUCKETS.map((bucket, index) => ({
        label: bucket.label,
        count: cards.buckets[index] ?? 0,
      })),
      options: {
        tags: optionTags.map((tag) => tag.name).sort(byName),
        topics: (allTopics ?? topics).map((topic) => topic.name).sort(byName),
        licenses: (allLicenses ?? licenses).map((license) => license.name).sort(byName),
      },
    };
  }

  /** `GET /tags`: every tag with its count by name, and the caller's own most used tags. */
  async tags(viewer: Viewer, query: CatalogueFilters): Promise<TagsResponse> {
    const [tags, own] = await Promise.all([
      this.#labelCounts('repository_tags', viewer, normalizeFilters(query)),
      this.#labelCounts('repository_tags', viewer, { ...NO_FILTERS, addedByMe: true }),
    ]);
    return {
      tags: tags.map(({ name, count }) => ({ name, count })).sort((a, b) => byName(a.name, b.name)),
      suggestions: own
        .map(({ name, count }) => ({ name, count }))
        .sort(byCountThenName)
        .slice(0, TAG_SUGGESTIONS_MAX),
    };
  }

  /** `GET /repositories/counts`: the sidebar's numbers. */
  async counts(viewer: Viewer): Promise<CatalogueCounts> {
    const [total, mine, tags] = await Promise.all([
      countMatching(this.#db, viewer, NO_FILTERS),
      countMatching(this.#db, viewer, { ...NO_FILTERS, addedByMe: true }),
      this.#labelCounts('repository_tags', viewer, NO_FILTERS),
    ]);
    return { total, mine, tags: tags.length };
  }

  // ---- aggregates ------------------------------------------------------------------------------

  /**
   * "Fastest growing, last 30 days": the first page of the 30-day growth sort (its index),
   * among the filtered repositories that gained stars.
   */
  async #fastestGrowing(viewer: Viewer, filters: NormalizedFilters, matches: number) {
    const growing = { ...filters, minGrowth30d: Math.max(filters.minGrowth30d ?? 1, 1) };
    const { rows } = await fetchPage(
      this.#db,
      viewer,
      growing,
      { sort: 'growth_30d', order: 'desc' },
      FASTEST_GROWING_LIMIT,
      null,
      idSetUseFor(growing, matches),
    );
    return rows.map((row) => ({
      id: row.full_name,
      name: row.name,
      stars: row.stars,
      stars_30d: row.stars_30d ?? 0,
    }));
  }

  async #cards(viewer: Viewer, filters: NormalizedFilters) {
    const since = ceilToSecond(addMs(this.#clock.now(), -RECENTLY_UPDATED_DAYS * DAY_MS));
    // Bucket i holds stars in (max of bucket i-1, max of bucket i]; the first takes anything lower.
    const buckets = STAR_BUCKETS.map((bucket, index) => {
      const below = index === 0 ? null : (STAR_BUCKETS[index - 1] as { max: number }).max;
      const upper = Number.isFinite(bucket.max) ? sql`stars <= ${bucket.max}` : sql`1 = 1`;
      const lower = below === null ? sql`1 = 1` : sql`stars > ${below}`;
      return sql<number>`coalesce(sum(case when ${lower} and ${upper} then 1 else 0 end), 0)`.as(
        `bucket_${index}`,
      );
    });
    const row = (await matchingBase(this.#db, viewer, filters)
      .select([
        sql<number>`count(*)`.as('total'),
        sql<number>`coalesce(sum(stars), 0)`.as('stars'),
        sql<number>`coalesce(sum(forks), 0)`.as('forks'),
        sql<number>`coalesce(sum(issues), 0)`.as('issues'),
        sql<number>`coalesce(sum(commits), 0)`.as('commits'),
        sql<number>`coalesce(sum(case when contributors > ${CONTRIBUTORS_CAP} then ${CONTRIBUTORS_CAP} when contributors < 0 then 0 else contributors end), 0)`.as(
          'contributors',
        ),
        // ISO-8601 UTC strings compare in time order. `since` is a whole second written with
        // milliseconds, so GitHub's "…:SSZ" compares exactly as the instant it names.
        sql<number>`coalesce(sum(case when last_commit >= ${since} then 1 else 0 end), 0)`.as('recent'),
        sql<number>`coalesce(sum(case when trim(license) <> '' then 1 else 0 end), 0)`.as('with_license'),
        ...buckets,
      ])
      .executeTakeFirstOrThrow()) as Record<string, number | string>;
    const number = (name: string) => Number(row[name] ?? 0);
    return {
      total: number('total'),
      stars: number('stars'),
      forks: number('forks'),
      issues: number('issues'),
      commits: number('commits'),
      contributors: number('contributors'),
      recent: number('recent'),
      withLicense: number('with_license'),
      buckets: STAR_BUCKETS.map((_, index) => number(`bucket_${index}`)),
    };
  }

  /**
   * Repositories per health grade, every grade listed (the never assessed count as unknown): a
   * query of its own, so the cards' keeps reading only its covering index.
   */
  async #healthGrades(viewer: Viewer, filters: NormalizedFilters) {
    const rows = await matchingBase(this.#db, viewer, filters)
      .select([sql<HealthGrade | null>`health_grade`.as('grade'), sql<number>`count(*)`.as('count')])
      .groupBy('repositories.health_grade')
      .execute();
    const counts = new Map<HealthGrade, number>();
    for (const row of rows) {
      const grade = row.grade ?? 'unknown';
      counts.set(grade, (counts.get(grade) ?? 0) + Number(row.count));
    }
    return HEALTH_GRADES.map((grade) => ({ grade, count: counts.get(grade) ?? 0 }));
  }

  /** Open advisories by severity over the matching repositories (only rows that have one are read). */
  async #openAdvisories(viewer: Viewer, filters: NormalizedFilters) {
    const row = (await matchingBase(this.#db, viewer, filters)
      .where('repositories.advisory_level', '>', 0)
      .select(
        ADVISORY_SEVERITIES.map((severity) =>
          sql<number>`coalesce(sum(${sql.ref(`advisories_${severity}`)}), 0)`.as(severity),
        ),
      )
      .executeTakeFirstOrThrow()) as Record<string, number | string>;
    return Object.fromEntries(
      ADVISORY_SEVERITIES.map((severity) => [severity, Number(row[severity] ?? 0)]),
    ) as Record<AdvisorySeverity, number>;
  }

  /** Repositories per licence ('No License' for none), spellings merged case-insensitively. */
  async #licenses(viewer: Viewer, filters: NormalizedFilters): Promise<NameCount[]> {
    const rows = await matchingBase(this.#db, viewer, filters)
      // Grouped by the stored value (read from a covering index), spellings merged below.
      .select([sql<string>`license`.as('license'), sql<number>`count(*)`.as('count')])
      // Grouping by (private, license) follows the stats index's order: no sort step.
      .groupBy(['repositories.private', 'repositories.license'])
      .execute();
    const merged = new Map<string, NameCount>();
    for (const row of rows) {
      const name = displayLicense(row.license);
      const key = name.toLowerCase();
      const entry = merged.get(key);
      if (!entry) merged.set(key, { name, count: Number(row.count) });
      else {
        entry.count += Number(row.count);
        if (name < entry.name) entry.name = name;
      }
    }
    return [...merged.values()].sort(byCountThenName);
  }

  /**
   * Each tag (or topic) over the matching repositories: its key, one spelling (the least in
   * code point order) and the count, from repositories the viewer may see only.
   *
   * Label rows are many (several per repository), so the label index is scanned whole when
   * many repositories match, with membership as a check per row (the few private repositories
   * the viewer may not see are left out, when there are no filters), and the database starts
   * from the matching ids when they are few.
   */
  async #labelCounts(
    table: 'repository_tags' | 'repository_topics',
    viewer: Viewer,
    filters: NormalizedFilters,
  ): Promise<LabelCount[]> {
    const db = this.#db;
    const label = LABEL_COLUMNS[table];
    // SQLite's unary + keeps the membership term from driving the plan.
    const repositoryId = (use: IdSetUse) =>
      use === 'filter' && !isPostgres(db) ? sql`+repository_id` : sql`repository_id`;
    let where: RawBuilder<unknown> | null = null;
    if (hasFilters(filters)) {
      const use: IdSetUse = isLargeIdSet(await countMatching(db, viewer, filters)) ? 'filter' : 'set';
      where = sql`${repositoryId(use)} in (${matchingIds(db, viewer, filters)})`;
    } else if (!viewer.is_admin) {
      // The private repositories this viewer may not see: few, whatever the catalogue's size.
      const visiblePrivate = visibleTo(
        db.selectFrom('repositories').select('repositories.id').where('repositories.private', '=', 1),
        viewer,
      );
      const hidden = db
        .selectFrom('repositories')
        .select('repositories.id')
        .where('repositories.private', '=', 1)
        .where('repositories.id', 'not in', visiblePrivate);
      where = sql`${repositoryId('filter')} not in (${hidden})`;
    }
    const result =
      await sql<LabelCount>`select ${sql.ref(label.key)} as key, min(${sql.ref(label.name)}) as name, count(*) as count
      from ${sql.table(table)} ${where ? sql`where ${where}` : sql``} group by ${sql.ref(label.key)}`.execute(
        db,
      );
    return result.rows.map((row) => ({ ...row, count: Number(row.count) }));
  }
}

interface LabelCount {
  key: string;
  name: string;
  count: number;
}

const LABEL_COLUMNS = {
  repository_tags: { key: 'tag_lower', name: 'tag' },
  repository_topics: { key: 'topic_lower', name: 'topic' },
} as const;

function matchingBase(db: Kysely<Database>, viewer: Viewer, filters: NormalizedFilters) {
  return applyFilters(db, db.selectFrom('repositories'), filters, viewer);
}

/** `2026-10-23T10:00:01.000Z` for any instant after 10:00:00: the first whole second at or after it. */
function ceilToSecond(date: Date): string {
  return dateAtMs(Math.ceil(date.getTime() / 1000) * 1000).toISOString();
}
