import type { Kysely } from 'kysely';
import type { NewEvent } from '#shared/schemas/activity.ts';
import {
  DEFAULT_RELEASE_TRACKING,
  type ReleaseSettingsBody,
  type ReleaseTracking,
  releaseSettingsBodySchema,
} from '#shared/schemas/releases.ts';
import type { CatalogueChanges, ChangeBus } from '../../changes/catalogue-changes.ts';
import { inTransaction } from '../../db/database.ts';
import type { Database, RepositoryRow } from '../../db/schema.ts';
import { RELEASES_READ, type ReleaseInfo, type ReleaseRead } from '../../github/repository-snapshot.ts';
import { badRequest } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import { resolveVisible, type Viewer } from '../../repository/access-policy.ts';
import { comparedValues } from '../versions/versions.service.ts';
import { releaseDay, releaseDescription, tagMatcher, VERSION_NUMBER_MAX } from './release-rules.ts';
import * as queries from './releases.queries.ts';

export interface ReleasesDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** Settings changes are published as `repository.updated`. */
  changes: ChangeBus;
  /** Records events in the caller's transaction (the activity module's recorder). */
  recordEvents: (db: Kysely<Database>, events: readonly NewEvent[], now: string) => Promise<void>;
}

/** What one read did, for tests and logs. */
export interface ReleaseOutcome {
  /** Versions made from releases (or tags). */
  created: number;
  /** Releases whose tag was already a version: linked to it instead. */
  linked: number;
  /** Seen releases GitHub no longer lists. */
  deleted: number;
}

/**
 * Releases become versions (docs/product.md#releases). Every sync hands over the newest
 * releases it read (or, for a project without any, its newest tags); the first read of a
 * repository makes only the latest matching one a version, later reads each new one, with a
 * snapshot of the metrics like a member's version and a `release_published` event, all in the
 * sync's own transaction. Per repository, members choose whether pre-releases count and which
 * tags (a glob pattern).
 */
export class ReleasesService {
  readonly #deps: ReleasesDeps;

  constructor(deps: ReleasesDeps) {
    this.#deps = deps;
  }

  /** The repository's release tracking, defaults when never saved nor read. */
  async tracking(repositoryId: number, db: Kysely<Database> = this.#deps.db): Promise<ReleaseTracking> {
    const row = await queries.findTracking(db, repositoryId);
    if (!row) return { ...DEFAULT_RELEASE_TRACKING };
    return {
      include_prereleases: row.include_prereleases === 1,
      tag_pattern: row.tag_pattern,
      follows: row.follows,
      checked_at: row.checked_at,
    };
  }

  /**
   * PUT /repositories/{id}/release-settings: any member who may see the repository (and so
   * edit its tags) sets them. They apply to releases seen from now on; versions stay.
   */
  async updateSettings(
    viewer: Viewer,
    fullName: string,
    body: ReleaseSettingsBody,
  ): Promise<ReleaseTracking> {
    const row = await resolveVisible(this.#deps.db, viewer, fullName);
    // The route validated the body already; parsed again so a direct call can't store a bad pattern.
    const parsed = releaseSettingsBodySchema.safeParse(body);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Please check the release settings.';
      throw badRequest(message, { [String(parsed.error.issues[0]?.path[0] ?? 'tag_pattern')]: message });
    }
    const { db, clock, changes } = this.#deps;
    const updated = { before: row, after: row, actor: viewer.id, fields: ['release_settings' as const] };
    await inTransaction(db, async (trx) => {
      await queries.upsertTracking(trx, row.id, {
        include_prereleases: parsed.data.include_prereleases ? 1 : 0,
        tag_pattern: parsed.data.tag_pattern,
        updated_at: isoNow(clock),
      });
      await changes.publish('repository.updated', updated, trx);
    });
    await changes.committed('repository.updated', updated);
    return this.tracking(row.id);
  }

  /** Lower-case names of these repositories whose tags are followed instead of releases. */
  async followingTags(repositoryIds: number[]): Promise<Set<string>> {
    return new Set(await queries.listFollowingTags(this.#deps.db, repositoryIds));
  }

  /** A new repository's releases, in the add's transaction: the latest matching one becomes a version. */
  async added(change: CatalogueChanges['repository.added'], trx: Kysely<Database>): Promise<void> {
    if (change.snapshot.releases)
      await this.record(trx, change.repository, change.snapshot.releases, isoNow(this.#deps.clock));
  }

  /** A refresh's releases, in its transaction: new ones become versions with their metrics. */
  async synced(change: CatalogueChanges['repository.synced'], trx: Kysely<Database>): Promise<void> {
    if (change.snapshot?.releases && change.after.gone === 0)
      await this.record(trx, change.after, change.snapshot.releases, isoNow(this.#deps.clock));
  }

  /**
   * Applies what a sync read about the repository's releases, inside the sync's transaction
   * `db`; `row` is the repository as just written (its metrics are the versions' snapshot).
   */
  async record(
    db: Kysely<Database>,
    row: RepositoryRow,
    read: ReleaseRead,
    now: string,
  ): Promise<ReleaseOutcome> {
    const outcome: ReleaseOutcome = { created: 0, linked: 0, deleted: 0 };
    const published = read.releases?.filter((release) => !release.draft) ?? [];
    let kind: 'release' | 'tag';
    let items: ReleaseInfo[];
    if (published.length > 0) {
      kind = 'release';
      items = published;
    } else if (read.tags) {
      kind = 'tag';
      items = read.tags;
    } else {
      // No published release, and the tags come with the next read (GraphQL asks for them
      // only once it knows): remember to ask.
      if (read.releases) await queries.upsertTracking(db, row.id, { follows: 'tags', updated_at: now });
      return outcome;
    }
    const tracking = await this.tracking(row.id, db);
    const firstRead = tracking.checked_at === null;
    const matches = tagMatcher(tracking.tag_pattern);
    const wanted = (release: ReleaseInfo) =>
      release.tag.trim() !== '' &&
      release.tag.length <= VERSION_NUMBER_MAX &&
      (tracking.include_prereleases || !release.prerelease) &&
      matches(release.tag);

    const seen = new Map((await queries.listSeen(db, row.id, kind)).map((entry) => [entry.tag, entry]));
    const fresh = items.filter((release) => !seen.has(release.tag));
    // The first read takes only the latest release that passes; later reads every new one.
    const latest = items.find(wanted);
    const becomeVersions = new Set(
      firstRead
        ? latest && !seen.has(latest.tag)
          ? [latest.tag]
          : []
        : fresh.filter(wanted).map((r) => r.tag),
    );

    const events: NewEvent[] = [];
    // Oldest first, so versions and events are numbered in the order they were published.
    for (const release of [...fresh].reverse()) {
      let versionId: number | null = null;
      if (becomeVersions.has(release.tag)) {
        const existing = await queries.findVersionByNumber(db, row.id, release.tag);
        if (existing) {
          versionId = existing.id;
          if (release.url) await queries.setVersionReleaseUrl(db, existing.id, release.url);
          outcome.linked += 1;
        } else {
          versionId = await queries.insertVersion(db, {
            repository_id: row.id,
            user_id: null,
            version_number: release.tag.trim(),
            release_date: releaseDay(release, now),
            description: releaseDescription(release),
            snapshot: JSON.stringify(comparedValues(row)),
            created_at: now,
            source: 'release',
            release_url: release.url,
          });
          outcome.created += 1;
        }
        // A release already out when the repository was first read is no news.
        if (!firstRead)
          events.push({
            type: 'release_published',
            repository_id: row.id,
            occurred_at: release.publishedAt ?? now,
            data: { tag: release.tag, name: release.name, url: release.url, prerelease: release.prerelease },
          });
      }
      await queries.insertSeen(db, {
        repository_id: row.id,
        kind,
        tag: release.tag,
        name: release.name,
        published_at: release.publishedAt,
        prerelease: release.prerelease ? 1 : 0,
        url: release.url,
        version_id: versionId,
        seen_at: now,
      });
    }
    if (kind === 'release' && read.releases && !read.latestOnly)
      outcome.deleted = await this.#markDeleted(db, seen, read.releases, now);
    await queries.upsertTracking(db, row.id, {
      follows: kind === 'release' ? 'releases' : 'tags',
      checked_at: now,
      updated_at: now,
    });
    await this.#deps.recordEvents(db, events, now);
    return outcome;
  }

  /**
   * A release GitHub stopped listing is recorded as deleted; its version stays. Only releases
   * the read window covers are judged: all of them when the list was shorter than a window,
   * else those published since the window's oldest.
   */
  async #markDeleted(
    db: Kysely<Database>,
    seen: Map<string, queries.SeenReleaseRow>,
    listed: ReleaseInfo[],
    now: string,
  ): Promise<number> {
    const tags = new Set(listed.map((release) => release.tag));
    const dates = listed.flatMap((release) => (release.publishedAt ? [Date.parse(release.publishedAt)] : []));
    const oldest = dates.length > 0 ? Math.min(...dates) : Number.POSITIVE_INFINITY;
    const whole = listed.length < RELEASES_READ;
    const gone = [...seen.values()].filter(
      (entry) =>
        entry.deleted_at === null &&
        !tags.has(entry.tag) &&
        (whole || (entry.published_at !== null && Date.parse(entry.published_at) >= oldest)),
    );
    await queries.markDeleted(
      db,
      gone.map((entry) => entry.id),
      now,
    );
    // Listed again (republished under the same tag): no longer deleted.
    const back = listed.flatMap((release) => {
      const entry = seen.get(release.tag);
      return entry && entry.deleted_at !== null ? [entry.id] : [];
    });
    await queries.markDeleted(db, back, null);
    return gone.length;
  }
}
