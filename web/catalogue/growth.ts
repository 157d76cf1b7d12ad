import { formatCount } from '#shared/format.ts';
import type { RepositoryGrowth } from '#shared/schemas/repositories.ts';

/**
 * Stars gained, signed: '+1,234', '0', '-12' (docs/product.md#repository-list). Null (not
 * enough history) reads as an em dash.
 */
export function formatGrowth(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  return value > 0 ? `+${formatCount(value)}` : formatCount(value);
}

/** The list's Growth cell and the card's line: '+1,234 / 30 d'. */
export function growthLabel(growth: RepositoryGrowth): string {
  return `${formatGrowth(growth.stars_30d)} / 30 d`;
}

/** What the cell's title says: both figures, or why there are none. */
export function growthTitle(growth: RepositoryGrowth): string {
  if (growth.stars_7d === null && growth.stars_30d === null)
    return 'Not enough history yet: the stars gained show once a stored day is 7 days old.';
  const part = (value: number | null, days: number) =>
    value === null ? `not enough history for ${days} days` : `${formatGrowth(value)} stars in ${days} days`;
  return `${part(growth.stars_7d, 7)}; ${part(growth.stars_30d, 30)}`;
}
