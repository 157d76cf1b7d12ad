import { makeBadge } from 'badge-maker';
import type { Kysely } from 'kysely';
import { formatStars } from '#shared/format.ts';
import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '#shared/schemas/advisories.ts';
import type { BadgeKind, BadgeQuery, BadgeStyle } from '#shared/schemas/badges.ts';
import type { HealthGrade } from '#shared/schemas/health.ts';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/app-error.ts';
import { etagOf } from '../../lib/etag.ts';
import {
  type BadgeRow,
  findLatestVersionNumber,
  findPublicBadgeRow,
  findPublishedRing,
} from './badges.queries.ts';

/**
 * The one answer for a badge that isn't there: badges off, a missing repository, a private one,
 * the `status` kind — the same body, so nothing can be learnt from it (docs/security.md#badges).
 */
export const BADGE_NOT_FOUND = 'Badge not found';

/** A drawn badge and its strong ETag (a digest of the SVG itself). */
export interface Badge {
  svg: string;
  etag: string;
}

/** What a badge says: its label, message and colour (badge-maker's names or #hex). */
export interface BadgeText {
  label: string;
  message: string;
  color: string;
}

const GRADES: Record<HealthGrade, { label: string; color: string }> = {
  healthy: { label: 'healthy', color: 'brightgreen' },
  watch: { label: 'watch', color: 'yellow' },
  at_risk: { label: 'at risk', color: 'red' },
  archived: { label: 'archived', color: 'lightgrey' },
  unknown: { label: 'unknown', color: 'lightgrey' },
};

const SEVERITY_COLORS: Record<AdvisorySeverity, string> = {
  critical: 'critical',
  high: 'orange',
  medium: 'yellow',
  low: 'yellowgreen',
  unknown: 'lightgrey',
};

const SEVERITY_WORDS: Record<AdvisorySeverity, string> = {
  critical: 'critical',
  high: 'high',
  medium: 'medium',
  low: 'low',
  unknown: 'unrated',
};

/** A badge's text from the repository's row (and its latest tracked version, for `release`). */
export function badgeText(kind: Exclude<BadgeKind, 'status'>, row: BadgeRow, version?: string): BadgeText {
  switch (kind) {
    case 'stars':
      return { label: 'stars', message: formatStars(Number(row.stars)), color: 'blue' };
    case 'growth': {
      if (row.stars_30d === null) return { label: 'stars/30d', message: 'n/a', color: 'lightgrey' };
      const gained = Number(row.stars_30d);
      const message = gained > 0 ? `+${formatStars(gained)}` : formatStars(gained);
      return {
        label: 'stars/30d',
        message,
        color: gained > 0 ? 'brightgreen' : gained < 0 ? 'orange' : 'lightgrey',
      };
    }
    case 'health': {
      const grade = GRADES[row.health_grade ?? 'unknown'];
      const score = row.health_score === null ? '' : ` ${Math.round(Number(row.health_score))}`;
      return { label: 'health', message: `${grade.label}${score}`, color: grade.color };
    }
    case 'release':
      return version === undefined
        ? { label: 'release', message: 'none', color: 'lightgrey' }
        : { label: 'release', message: version, color: 'blue' };
    case 'advisories':
      return advisoriesText(row);
  }
}

/** The count at the highest open severity, `+N` for the others; `none` in green. */
function advisoriesText(row: BadgeRow): BadgeText {
  const counts: Record<AdvisorySeverity, number> = {
    critical: Number(row.advisories_critical),
    high: Number(row.advisories_high),
    medium: Number(row.advisories_medium),
    low: Number(row.advisories_low),
    unknown: Number(row.advisories_unknown),
  };
  const highest = ADVISORY_SEVERITIES.find((severity) => counts[severity] > 0);
  if (!highest) return { label: 'advisories', message: 'none', color: 'brightgreen' };
  const total = ADVISORY_SEVERITIES.reduce((sum, severity) => sum + counts[severity], 0);
  const others = total - counts[highest];
  return {
    label: 'advisories',
    message: `${counts[highest]} ${SEVERITY_WORDS[highest]}${others > 0 ? ` +${others}` : ''}`,
    color: SEVERITY_COLORS[highest],
  };
}

const RINGS: Record<string, { message: string; color: string }> = {
  adopt: { message: 'adopt', color: 'brightgreen' },
  trial: { message: 'trial', color: 'blue' },
  assess: { message: 'assess', color: 'yellow' },
  hold: { message: 'hold', color: 'orange' },
  retired: { message: 'retired', color: 'lightgrey' },
};

/** The ring of a published radar edition. */
export function statusText(ring: string): BadgeText {
  const known = RINGS[ring] ?? { message: ring, color: 'lightgrey' };
  return { label: 'radar', ...known };
}

export function drawBadge(text: BadgeText, style: BadgeStyle, label?: string): Badge {
  const svg = makeBadge({ label: label ?? text.label, message: text.message, color: text.color, style });
  return { svg, etag: etagOf(svg) };
}

/**
 * Status badges of the catalogue's public repositories (docs/product.md#badges), for anyone:
 * read from the repository's row (its kept stars, growth, health and advisory counts) and, for
 * `release`, its latest tracked version. Never a private repository, never who is asking.
 */
export class BadgesService {
  readonly #db: Kysely<Database>;
  readonly #enabled: boolean;
  readonly #editionsPublished: boolean;

  /** `editionsPublished`: PUBLIC_PAGES, without which no radar edition is public (`status` answers 404). */
  constructor(deps: { db: Kysely<Database>; enabled: boolean; editionsPublished: boolean }) {
    this.#db = deps.db;
    this.#enabled = deps.enabled;
    this.#editionsPublished = deps.editionsPublished;
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  async badge(fullName: string, kind: BadgeKind, query: BadgeQuery): Promise<Badge> {
    if (!this.#enabled) throw notFound(BADGE_NOT_FOUND);
    const row = await findPublicBadgeRow(this.#db, fullName);
    if (!row) throw notFound(BADGE_NOT_FOUND);
    if (kind === 'status') {
      // The team's ring is the team's business until it publishes a radar edition holding it.
      const ring = this.#editionsPublished ? await findPublishedRing(this.#db, row.id) : undefined;
      if (ring === undefined) throw notFound(BADGE_NOT_FOUND);
      return drawBadge(statusText(ring), query.style, query.label);
    }
    const version = kind === 'release' ? await findLatestVersionNumber(this.#db, row.id) : undefined;
    return drawBadge(badgeText(kind, row, version), query.style, query.label);
  }
}
