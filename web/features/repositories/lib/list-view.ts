/**
 * The repository list's view (docs/product.md#repository-list) as it lives in the address bar:
 * `#/home?q=react&sort=stars&order=desc&view=cards&tags=ui,web`, so a view can be shared and
 * survives a reload. The server searches, filters and sorts (docs/product.md#catalogue-queries);
 * this module reads and writes the query string and turns it into the list call's parameters.
 */
import { CARD_DENSITIES, DEFAULT_CARD_DENSITY } from '#shared/constants.ts';
import { starRangeLabel } from '#shared/format.ts';
import type { AdvisorySeverity } from '#shared/schemas/advisories.ts';
import {
  CATALOGUE_SORTS,
  type CatalogueFilters,
  type CatalogueOrder,
  type CatalogueSort,
  catalogueFilterShape,
  DEFAULT_CATALOGUE_ORDER,
  DEFAULT_CATALOGUE_SORT,
  defaultCatalogueOrder,
  parseHealthGrades,
  parseStatusFilter,
  type StatusFilterValue,
} from '#shared/schemas/catalogue.ts';
import type { RepositoryListQuery } from '#web/catalogue/get-repository-pages.ts';
import { formatGrowth } from '#web/catalogue/growth.ts';
import { STATUS_LABELS } from '#web/components/decision-badge.tsx';
import { GRADE_LABELS, SEVERITY_LABELS } from '#web/components/health-badge.tsx';

/** Every column the server sorts by; the table offers six of them. */
export type SortKey = CatalogueSort;
export type SortDirection = CatalogueOrder;

export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** Last commit, newest first. */
export const DEFAULT_SORT: SortState = { key: DEFAULT_CATALOGUE_SORT, direction: DEFAULT_CATALOGUE_ORDER };

/** A new column starts descending for counts and the sync and record dates, ascending otherwise. */
export function defaultDirection(key: SortKey): SortDirection {
  return defaultCatalogueOrder(key);
}

/** The same column toggles; a new one takes its default direction. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: defaultDirection(key) };
}

export type ListLayout = 'table' | 'cards';

/** The filters the list takes from the address bar (the list call's own, minus the search). */
export type ListFilters = Omit<Partial<CatalogueFilters>, 'q'>;

export interface ListView {
  /** As typed (trimmed only when sent). */
  search: string;
  sort: SortState;
  layout: ListLayout;
  /** Cards per row. */
  density: number;
  filters: ListFilters;
}

/** The filter parameters, in the order their chips are shown. */
export const FILTER_KEYS = [
  'tags',
  'topics',
  'license',
  'language',
  'min_stars',
  'max_stars',
  'min_growth_30d',
  'health',
  'status',
  'advisories',
  'archived',
  'gone',
  'added_by',
] as const satisfies readonly (keyof ListFilters)[];
type FilterKey = (typeof FILTER_KEYS)[number];

function isSortKey(value: string | null): value is SortKey {
  return (CATALOGUE_SORTS as readonly string[]).includes(value ?? '');
}

/**
 * The filters of a query string, each checked by the contract's own rule; a value the server
 * would refuse is left out (as is a star range whose minimum is above its maximum: an invalid
 * range is ignored in filtering), so a hand-edited address still shows a list.
 */
export function readFilters(params: URLSearchParams): ListFilters {
  const filters: Record<string, unknown> = {};
  for (const key of FILTER_KEYS) {
    const raw = params.get(key);
    if (raw === null || raw.trim() === '') continue;
    const parsed = catalogueFilterShape[key].safeParse(raw.trim());
    if (parsed.success && parsed.data !== undefined) filters[key] = parsed.data;
  }
  const result = filters as ListFilters;
  if (
    result.min_stars !== undefined &&
    result.max_stars !== undefined &&
    result.min_stars > result.max_stars
  ) {
    delete result.min_stars;
    delete result.max_stars;
  }
  return result;
}

export function readListView(params: URLSearchParams): ListView {
  const sortParam = params.get('sort');
  const key = isSortKey(sortParam) ? sortParam : DEFAULT_SORT.key;
  const orderParam = params.get('order');
  // As on the server: no sort is last commit, newest first; a sort without order takes its column's default.
  const direction: SortDirection =
    orderParam === 'asc' || orderParam === 'desc'
      ? orderParam
      : isSortKey(sortParam)
        ? defaultDirection(key)
        : DEFAULT_SORT.direction;
  const density = Number(params.get('per_row'));
  return {
    search: params.get('q') ?? '',
    sort: { key, direction },
    layout: params.get('view') === 'cards' ? 'cards' : 'table',
    density: (CARD_DENSITIES as readonly number[]).includes(density) ? density : DEFAULT_CARD_DENSITY,
    filters: readFilters(params),
  };
}

/** A filter's value as it travels in the address bar (and in the request). */
function filterParam(value: ListFilters[FilterKey]): string {
  return String(value);
}

/**
 * `params` with `patch` applied; defaults are left out, so the plain list stays `#/home`.
 * Parameters this module doesn't know are kept.
 */
export function writeListView(params: URLSearchParams, patch: Partial<ListView>): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | null) => {
    if (value === null || value === '') next.delete(name);
    else next.set(name, value);
  };
  if (patch.search !== undefined) set('q', patch.search);
  if (patch.sort) {
    const isDefault = patch.sort.key === DEFAULT_SORT.key && patch.sort.direction === DEFAULT_SORT.direction;
    set('sort', isDefault ? null : patch.sort.key);
    set('order', isDefault ? null : patch.sort.direction);
  }
  if (patch.layout !== undefined) set('view', patch.layout === 'cards' ? 'cards' : null);
  if (patch.density !== undefined)
    set('per_row', patch.density === DEFAULT_CARD_DENSITY ? null : String(patch.density));
  if (patch.filters) {
    for (const key of FILTER_KEYS) {
      const value = patch.filters[key];
      set(key, value === undefined ? null : filterParam(value));
    }
  }
  return next;
}

/** The list call's parameters for a view: the trimmed search, the filters and the sort. */
export function listQuery(search: string, view: Pick<ListView, 'sort' | 'filters'>): RepositoryListQuery {
  const q = search.trim();
  return {
    ...(q ? { q } : {}),
    ...view.filters,
    sort: view.sort.key,
    order: view.sort.direction,
  };
}

/** A removable chip of an active filter. */
export interface FilterChip {
  key: FilterKey | 'stars';
  label: string;
}

/** The active filters as chips: 'Tag: …', 'Topic: …', 'License: …', stars, health, advisories and the flags. */
export function filterChips(filters: ListFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
  const tags = list(filters.tags);
  if (tags.length > 0)
    chips.push({ key: 'tags', label: `${tags.length === 1 ? 'Tag' : 'Tags'}: ${tags.join(', ')}` });
  const topics = list(filters.topics);
  if (topics.length > 0)
    chips.push({ key: 'topics', label: `${topics.length === 1 ? 'Topic' : 'Topics'}: ${topics.join(', ')}` });
  if (filters.license) chips.push({ key: 'license', label: `License: ${filters.license}` });
  if (filters.language) chips.push({ key: 'language', label: `Language: ${filters.language}` });
  const { min_stars: min, max_stars: max } = filters;
  if (min !== undefined || max !== undefined) {
    chips.push({ key: 'stars', label: starRangeLabel(min, max) });
  }
  if (filters.min_growth_30d !== undefined)
    chips.push({
      key: 'min_growth_30d',
      label: `Growth (30 days) ≥ ${formatGrowth(filters.min_growth_30d)}`,
    });
  const grades = parseHealthGrades(filters.health ?? '') ?? [];
  if (grades.length > 0)
    chips.push({ key: 'health', label: `Health: ${grades.map((grade) => GRADE_LABELS[grade]).join(', ')}` });
  const statuses = parseStatusFilter(filters.status ?? '') ?? [];
  if (statuses.length > 0)
    chips.push({ key: 'status', label: `Status: ${statuses.map(statusFilterLabel).join(', ')}` });
  if (filters.advisories) chips.push({ key: 'advisories', label: advisoriesLabel(filters.advisories) });
  if (filters.archived !== undefined)
    chips.push({ key: 'archived', label: filters.archived ? 'Archived' : 'Not archived' });
  if (filters.gone !== undefined)
    chips.push({ key: 'gone', label: filters.gone ? 'Gone from GitHub' : 'On GitHub' });
  if (filters.added_by === 'me') chips.push({ key: 'added_by', label: 'Added by me' });
  return chips;
}

/** A `status=` value as the screens name it: the status, or 'No status'. */
export function statusFilterLabel(value: StatusFilterValue): string {
  return value === 'none' ? 'No status' : STATUS_LABELS[value];
}

/** 'Open advisories: high or worse'; the lowest floor (unrated) is any open advisory. */
export function advisoriesLabel(severity: AdvisorySeverity): string {
  return severity === 'unknown'
    ? 'Open advisories: any'
    : `Open advisories: ${SEVERITY_LABELS[severity].toLowerCase()}${severity === 'critical' ? '' : ' or worse'}`;
}

/** The filters without a chip's. */
export function removeFilter(filters: ListFilters, chip: FilterChip['key']): ListFilters {
  const next = { ...filters };
  if (chip === 'stars') {
    delete next.min_stars;
    delete next.max_stars;
  } else {
    delete next[chip];
  }
  return next;
}
