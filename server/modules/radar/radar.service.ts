import type { Kysely } from 'kysely';
import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import {
  type AtRiskCause,
  atRiskCauseSchema,
  type EditionCompare,
  type Radar,
  type RadarEdition,
  type RadarQuery,
} from '#shared/schemas/radar.ts';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/app-error.ts';
import { type Clock, isoNow } from '../../lib/clock.ts';
import type { Viewer } from '../../repository/access-policy.ts';
import { findUsername } from '../../repository/repository.queries.ts';
import { labelKey } from '../../repository/repository-labels.ts';
import type { DecisionsService } from '../decisions/decisions.service.ts';
import type { AtRiskService } from './at-risk.service.ts';
import * as queries from './radar.queries.ts';
import {
  compareEntries,
  type Entry,
  entryKey,
  isRing,
  presentEdition,
  presentRadar,
  radarCsv,
  radarFileName,
} from './radar-presenter.ts';

export const EDITION_NOT_FOUND = 'Radar edition not found';

/** Statuses the radar shows: the four rings and Retired. */
const ON_RADAR: readonly DecisionStatus[] = ['adopt', 'trial', 'assess', 'hold', 'retired'];

export interface RadarDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The reviews-due read (GET /decisions/reviews-due), shown beside the current radar. */
  decisions: Pick<DecisionsService, 'reviewsDue'>;
  atRisk: Pick<AtRiskService, 'causesFor'>;
}

/** A frozen entry the viewer may read, with what matching and presenting it need. */
type EditionEntry = queries.EditionEntryRow;

function parseCauses(json: string): AtRiskCause[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? value.flatMap((cause) => atRiskCauseSchema.safeParse(cause).data ?? [])
      : [];
  } catch {
    return [];
  }
}

/** An edition's blips (Retired is not one). */
const ringCount = (entries: readonly EditionEntry[]) =>
  entries.filter((entry) => isRing(entry.status)).length;

function entryOf(row: EditionEntry): Entry {
  return {
    key: entryKey(row.repository_id, row.full_name),
    repository_id: row.live_full_name,
    full_name: row.full_name,
    quadrant: row.quadrant,
    status: row.status,
    rationale: row.rationale,
    health_grade: row.health_grade,
    at_risk_causes: parseCauses(row.at_risk_causes),
  };
}

/**
 * The technology radar (docs/product.md#the-radar): the current decisions as blips, frozen
 * editions an admin publishes and their comparison, build-your-own-radar's CSV.
 *
 * Editions are team-wide and store every entry, private repositories too; reading one shows a
 * caller only the entries they may see: the access policy for a repository that still exists,
 * and for one deleted since, its private flag when published (public: everyone; private:
 * admins only, as nobody can prove access to it any more).
 */
export class RadarService {
  readonly #deps: RadarDeps;

  constructor(deps: RadarDeps) {
    this.#deps = deps;
  }

  /** `GET /radar?tag=&edition=`: the current radar, or an edition (404 when there is none). */
  async radar(viewer: Viewer, query: RadarQuery): Promise<Radar> {
    const { db, decisions } = this.#deps;
    const tag = query.tag ? labelKey(query.tag) : null;
    if (query.edition !== undefined) return this.#editionRadar(viewer, query.edition, tag);
    const [rows, quadrants, previous, reviews] = await Promise.all([
      queries.listPlacements(db, { viewer, statuses: ON_RADAR, tag }),
      queries.listQuadrants(db),
      queries.previousEdition(db, null),
      decisions.reviewsDue(viewer),
    ]);
    const atRisk = await this.#deps.atRisk.causesFor(db, rows);
    const entries: Entry[] = rows.map((row) => ({
      key: entryKey(row.id, row.full_name),
      repository_id: row.full_name,
      full_name: row.full_name,
      quadrant: row.quadrant,
      status: row.status,
      rationale: row.rationale,
      health_grade: row.health_grade,
      at_risk_causes: atRisk.get(row.id)?.causes ?? [],
    }));
    const before = previous ? await this.#editionEntries(viewer, previous.id, null) : null;
    return {
      quadrants,
      rings: ['adopt', 'trial', 'assess', 'hold'],
      ...presentRadar(
        entries,
        quadrants.map((quadrant) => quadrant.key),
        before && this.#statusesOf(before),
      ),
      reviews_due: reviews.reviews_due,
      edition: null,
      previous_edition: previous && before ? presentEdition(previous, ringCount(before)) : null,
    };
  }

  /** `GET /radar.csv`: build-your-own-radar's file of the same radar, and its name. */
  async csv(viewer: Viewer, query: RadarQuery): Promise<{ name: string; body: string }> {
    const radar = await this.radar(viewer, query);
    const names = new Map(radar.quadrants.map((quadrant) => [quadrant.key, quadrant.name]));
    return { name: radarFileName(radar.edition, 'csv'), body: radarCsv(radar.blips, names) };
  }

  /** `GET /radar.json`: the radar as a download, and its name. */
  async json(viewer: Viewer, query: RadarQuery): Promise<{ name: string; radar: Radar }> {
    const radar = await this.radar(viewer, query);
    return { name: radarFileName(radar.edition, 'json'), radar };
  }

  /** `GET /radar/editions`, newest first; each counts the blips the viewer may see. */
  async editions(viewer: Viewer): Promise<RadarEdition[]> {
    const { db } = this.#deps;
    const rows = await queries.listEditions(db);
    const entries = this.#visible(
      viewer,
      await queries.editionEntries(
        db,
        rows.map((row) => row.id),
        viewer,
      ),
    );
    const counts = new Map<number, number>();
    for (const entry of entries)
      if (isRing(entry.status)) counts.set(entry.edition_id, (counts.get(entry.edition_id) ?? 0) + 1);
    return rows.map((row) => presentEdition(row, counts.get(row.id) ?? 0));
  }

  /**
   * `POST /radar/editions` (admins): freezes the current radar, every repository's entry
   * whoever may see it, with the quadrant names, health grade and at-risk causes of now. 409
   * when the name (any case) is taken.
   */
  async publish(viewer: Viewer, name: string): Promise<RadarEdition> {
    const { db, clock } = this.#deps;
    const taken = () => conflict(`An edition named "${name}" exists already: choose another name.`);
    if (await queries.findEditionByName(db, name)) throw taken();
    const username = await findUsername(db, viewer.id);
    try {
      const row = await inTransaction(db, async (trx) => {
        const [rows, quadrants] = await Promise.all([
          queries.listPlacements(trx, { viewer: null, statuses: ON_RADAR }),
          queries.listQuadrants(trx),
        ]);
        const atRisk = await this.#deps.atRisk.causesFor(trx, rows);
        const names = new Map(quadrants.map((quadrant) => [quadrant.key, quadrant.name]));
        return queries.insertEdition(
          trx,
          { name, published_at: isoNow(clock), published_by: viewer.id, published_by_name: username },
          quadrants,
          rows.map((row) => ({
            repository_id: row.id,
            private: row.private,
            full_name: row.full_name,
            quadrant: row.quadrant,
            quadrant_name: names.get(row.quadrant) ?? row.quadrant,
            status: row.status,
            rationale: row.rationale,
            health_grade: row.health_grade,
            at_risk_causes: JSON.stringify(atRisk.get(row.id)?.causes ?? []),
          })),
        );
      });
      return this.#presentEdition(viewer, row);
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** `GET /radar/editions/{a}/compare/{b}`: what moved from edition a to edition b. */
  async compare(viewer: Viewer, a: number, b: number): Promise<EditionCompare> {
    const { db } = this.#deps;
    const [from, to] = await Promise.all([queries.findEdition(db, a), queries.findEdition(db, b)]);
    if (!from || !to) throw notFound(EDITION_NOT_FOUND);
    const [before, after] = await Promise.all([
      this.#editionEntries(viewer, from.id, null),
      this.#editionEntries(viewer, to.id, null),
    ]);
    return {
      from: presentEdition(from, ringCount(before)),
      to: presentEdition(to, ringCount(after)),
      moves: compareEntries(before.map(entryOf), after.map(entryOf)),
    };
  }

  // ---- inside ---------------------------------------------------------------------------------

  async #editionRadar(viewer: Viewer, id: number, tag: string | null): Promise<Radar> {
    const { db } = this.#deps;
    const edition = await queries.findEdition(db, id);
    if (!edition) throw notFound(EDITION_NOT_FOUND);
    const [entries, quadrants, previous] = await Promise.all([
      this.#editionEntries(viewer, edition.id, tag),
      queries.editionQuadrants(db, edition.id),
      queries.previousEdition(db, edition.id),
    ]);
    const before = previous ? await this.#editionEntries(viewer, previous.id, null) : null;
    const radar = presentRadar(
      entries.map(entryOf),
      quadrants.map((quadrant) => quadrant.key),
      before && this.#statusesOf(before),
    );
    return {
      quadrants,
      rings: ['adopt', 'trial', 'assess', 'hold'],
      ...radar,
      reviews_due: [],
      edition:
        tag === null
          ? presentEdition(edition, ringCount(entries))
          : await this.#presentEdition(viewer, edition),
      previous_edition: previous && before ? presentEdition(previous, ringCount(before)) : null,
    };
  }

  /** An edition's entries the viewer may read, those carrying `tag` today when one is given. */
  async #editionEntries(viewer: Viewer, editionId: number, tag: string | null): Promise<EditionEntry[]> {
    const { db } = this.#deps;
    const entries = this.#visible(viewer, await queries.editionEntries(db, [editionId], viewer));
    if (tag === null) return entries;
    const tagged = await queries.taggedIds(
      db,
      tag,
      entries.flatMap((entry) => (entry.live_id === null ? [] : [entry.live_id])),
    );
    return entries.filter((entry) => entry.live_id !== null && tagged.has(entry.live_id));
  }

  /** See the class's comment: the access policy while the repository exists, its flag after. */
  #visible(viewer: Viewer, entries: EditionEntry[]): EditionEntry[] {
    if (viewer.is_admin) return entries;
    return entries.filter((entry) => (entry.live_id === null ? entry.private === 0 : entry.live_visible));
  }

  #statusesOf(entries: readonly EditionEntry[]): Map<string, DecisionStatus> {
    return new Map(entries.map((entry) => [entryKey(entry.repository_id, entry.full_name), entry.status]));
  }

  async #presentEdition(viewer: Viewer, row: queries.EditionRow): Promise<RadarEdition> {
    const entries = await this.#editionEntries(viewer, row.id, null);
    return presentEdition(row, ringCount(entries));
  }
}
