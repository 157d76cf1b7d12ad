import type { RepositoryHealth } from '#shared/schemas/health.ts';
import type { MetricPoint, Repository } from '#shared/schemas/repositories.ts';
import { addMs } from '../../lib/clock.ts';
import { latestVersion, presentRelease, presentSignal } from './mcp-presenter.ts';
import { untrusted } from './untrusted-text.ts';

const DAY_MS = 86_400_000;
/** The days `compare_repositories` looks back for stars (docs/mcp.md#tools). */
export const STARS_LOOKBACK_DAYS = [30, 365] as const;
const CADENCE_SIGNALS = new Set(['release_cadence_days', 'days_since_last_release']);

/**
 * Stars on the latest stored day at or before `days` days before `today` (the daily history and
 * the star-history backfill, as the growth columns count); null when no stored day is that old.
 */
export function starsDaysAgo(metrics: readonly MetricPoint[], today: Date, days: number): number | null {
  const cutoff = addMs(today, -days * DAY_MS)
    .toISOString()
    .slice(0, 10);
  let found: MetricPoint | null = null;
  for (const point of metrics) {
    if (point.day <= cutoff && (!found || point.day > found.day)) found = point;
  }
  return found ? found.stars : null;
}

/** One column of `compare_repositories`. */
export function compareColumn(
  repository: Repository,
  metrics: readonly MetricPoint[],
  health: RepositoryHealth,
  today: Date,
) {
  const [monthAgo, yearAgo] = STARS_LOOKBACK_DAYS.map((days) => starsDaysAgo(metrics, today, days));
  const signals = health.signals.map(presentSignal);
  return {
    id: repository.id,
    url: repository.url,
    description: untrusted(repository.description),
    stars: {
      now: repository.stars,
      days_30_ago: monthAgo ?? null,
      days_365_ago: yearAgo ?? null,
      change_30d: monthAgo === null || monthAgo === undefined ? null : repository.stars - monthAgo,
      change_365d: yearAgo === null || yearAgo === undefined ? null : repository.stars - yearAgo,
    },
    releases: {
      cadence: signals.filter((signal) => CADENCE_SIGNALS.has(signal.key)),
      latest: presentRelease(latestVersion(repository.versions)),
      tracked_versions: repository.versions.length,
    },
    health: { score: health.score, grade: health.grade, signals },
    decision: repository.decision,
    archived: repository.archived,
    gone: repository.gone,
    open_advisories: repository.open_advisories,
    last_commit: repository.last_commit,
  };
}
