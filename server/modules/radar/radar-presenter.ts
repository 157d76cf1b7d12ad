import type { DecisionStatus } from '#shared/schemas/decisions.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import {
  AT_RISK_CAUSES,
  type AtRiskCause,
  type BlipMove,
  BYOR_CSV_COLUMNS,
  type EditionCompare,
  RADAR_RINGS,
  type RadarBlip,
  type RadarEdition,
  type RadarRetired,
  type RadarRing,
} from '#shared/schemas/radar.ts';
import { csvCell } from '../../lib/csv-cell.ts';
import type { EditionRow } from './radar.queries.ts';

/**
 * The radar as the API shows it (docs/product.md#the-radar): blips numbered and compared with
 * the previous edition, editions, comparisons and build-your-own-radar's CSV. Pure functions.
 */

/** One placement, current or frozen, before numbering. */
export interface Entry {
  /** What matches it across editions: the repository's numeric id, or its name when unknown. */
  key: string;
  /** The id other calls take (owner/name); null once the repository was deleted. */
  repository_id: string | null;
  full_name: string;
  quadrant: string;
  status: DecisionStatus;
  rationale: string;
  health_grade: HealthGrade | null;
  at_risk_causes: AtRiskCause[];
}

export const entryKey = (repositoryId: number | null, fullName: string) =>
  repositoryId === null ? `name:${fullName.toLowerCase()}` : `id:${repositoryId}`;

const ringIndex = (status: DecisionStatus): number => (RADAR_RINGS as readonly string[]).indexOf(status);
export const isRing = (status: DecisionStatus): status is RadarRing => ringIndex(status) >= 0;

/** Code-point order of the lower-cased names, so the numbering is the same on every machine. */
function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * 'new' when not a blip of the previous edition, 'in' when its ring moved towards Adopt, 'out'
 * away, null otherwise (same ring, a quadrant change alone, or no previous edition at all).
 */
export function moveOf(
  status: RadarRing,
  previous: Map<string, DecisionStatus> | null,
  key: string,
): BlipMove | null {
  if (previous === null) return null;
  const before = previous.get(key);
  if (before === undefined || !isRing(before)) return 'new';
  const delta = ringIndex(status) - ringIndex(before);
  return delta < 0 ? 'in' : delta > 0 ? 'out' : null;
}

/**
 * Blips numbered 1…n quadrant by quadrant (the quadrants' order), ring by ring (Adopt to Hold),
 * then by name; Retired apart, in quadrant order then by name.
 */
export function presentRadar(
  entries: readonly Entry[],
  quadrantKeys: readonly string[],
  previous: Map<string, DecisionStatus> | null,
): { blips: RadarBlip[]; retired: RadarRetired[] } {
  const quadrantIndex = (key: string) => {
    const index = quadrantKeys.indexOf(key);
    return index < 0 ? quadrantKeys.length : index;
  };
  const ordered = [...entries].sort(
    (a, b) =>
      quadrantIndex(a.quadrant) - quadrantIndex(b.quadrant) ||
      (isRing(a.status) ? ringIndex(a.status) : RADAR_RINGS.length) -
        (isRing(b.status) ? ringIndex(b.status) : RADAR_RINGS.length) ||
      byName(a.full_name, b.full_name),
  );
  const blips: RadarBlip[] = [];
  const retired: RadarRetired[] = [];
  for (const entry of ordered) {
    if (entry.status === 'retired') {
      retired.push({
        repository_id: entry.repository_id,
        full_name: entry.full_name,
        quadrant: entry.quadrant,
        rationale: entry.rationale,
      });
      continue;
    }
    if (!isRing(entry.status)) continue;
    const inUse = entry.status === 'adopt' || entry.status === 'trial';
    const causes = inUse ? AT_RISK_CAUSES.filter((cause) => entry.at_risk_causes.includes(cause)) : [];
    blips.push({
      number: blips.length + 1,
      repository_id: entry.repository_id,
      full_name: entry.full_name,
      quadrant: entry.quadrant,
      status: entry.status,
      moved: moveOf(entry.status, previous, entry.key),
      rationale: entry.rationale,
      health_grade: entry.health_grade,
      at_risk: causes.length > 0,
      at_risk_causes: causes,
    });
  }
  return { blips, retired };
}

export function presentEdition(row: EditionRow, blipCount: number): RadarEdition {
  return {
    id: row.id,
    name: row.name,
    published_at: row.published_at,
    published_by: { id: row.published_by, username: row.published_by_name },
    blip_count: blipCount,
  };
}

/**
 * Every repository whose placement differs between two editions (status or quadrant), arrived
 * or left; `direction` only between two rings (Retired counts as past Hold: moving into it is
 * 'out'). In the later edition's order of names.
 */
export function compareEntries(from: readonly Entry[], to: readonly Entry[]): EditionCompare['moves'] {
  const before = new Map(from.map((entry) => [entry.key, entry]));
  const after = new Map(to.map((entry) => [entry.key, entry]));
  const rank = (status: DecisionStatus) => (isRing(status) ? ringIndex(status) : RADAR_RINGS.length);
  const moves: EditionCompare['moves'] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key);
    const b = after.get(key);
    if (a && b && a.status === b.status && a.quadrant === b.quadrant) continue;
    const shown = b ?? a;
    if (!shown) continue;
    const delta = a && b ? rank(b.status) - rank(a.status) : 0;
    moves.push({
      repository_id: shown.repository_id,
      full_name: shown.full_name,
      from: a ? { status: a.status, quadrant: a.quadrant } : null,
      to: b ? { status: b.status, quadrant: b.quadrant } : null,
      direction: delta < 0 ? 'in' : delta > 0 ? 'out' : null,
      rationale: shown.rationale,
    });
  }
  return moves.sort((x, y) => byName(x.full_name, y.full_name));
}

// ---- build-your-own-radar's CSV ----------------------------------------------------------------

const capitalised = (ring: RadarRing) => `${ring[0]?.toUpperCase()}${ring.slice(1)}`;

/**
 * `name,ring,quadrant,isNew,description`, one record per blip in number order, CRLF line ends;
 * Retired has no ring there and is left out (docs/product.md#the-radar).
 */
export function radarCsv(blips: readonly RadarBlip[], quadrantNames: ReadonlyMap<string, string>): string {
  const lines = [BYOR_CSV_COLUMNS.join(',')];
  for (const blip of blips)
    lines.push(
      [
        csvCell(blip.full_name),
        capitalised(blip.status),
        csvCell(quadrantNames.get(blip.quadrant) ?? blip.quadrant),
        blip.moved === 'new' ? 'TRUE' : 'FALSE',
        csvCell(blip.rationale),
      ].join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

/** `radar.csv`, or `radar-2026-q4.csv` for the edition "2026 Q4". */
export function radarFileName(
  edition: { id: number; name: string } | null,
  extension: 'csv' | 'json',
): string {
  if (edition === null) return `radar.${extension}`;
  const slug = edition.name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `radar-${slug || edition.id}.${extension}`;
}
