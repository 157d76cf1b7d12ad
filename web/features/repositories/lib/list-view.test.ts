import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SORT,
  defaultDirection,
  filterChips,
  listQuery,
  nextSort,
  readListView,
  removeFilter,
  writeListView,
} from './list-view.ts';

describe('sort rules', () => {
  it('starts with last_commit descending', () => {
    expect(DEFAULT_SORT).toEqual({ key: 'last_commit', direction: 'desc' });
  });

  it.each(['last_synced', 'created_at', 'updated_at', 'stars', 'forks', 'issues', 'commits'] as const)(
    '%s starts descending',
    (key) => expect(defaultDirection(key)).toBe('desc'),
  );

  it.each(['name', 'description', 'license', 'last_commit'] as const)('%s starts ascending', (key) => {
    expect(defaultDirection(key)).toBe('asc');
  });

  it('toggles the same column', () => {
    expect(nextSort(DEFAULT_SORT, 'last_commit')).toEqual({ key: 'last_commit', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'stars')).toEqual({
      key: 'stars',
      direction: 'desc',
    });
  });
});

describe('the view in the address bar', () => {
  const read = (query: string) => readListView(new URLSearchParams(query));

  it('reads an empty query as the default view', () => {
    expect(read('')).toEqual({
      search: '',
      sort: DEFAULT_SORT,
      layout: 'table',
      density: 3,
      filters: {},
    });
  });

  it('reads search, sort, view, density and filters', () => {
    expect(
      read(
        'q=react%20ui&sort=stars&order=asc&view=cards&per_row=4&tags=ui,web&license=MIT&min_stars=10&archived=false&added_by=me',
      ),
    ).toEqual({
      search: 'react ui',
      sort: { key: 'stars', direction: 'asc' },
      layout: 'cards',
      density: 4,
      filters: { tags: 'ui,web', license: 'MIT', min_stars: 10, archived: false, added_by: 'me' },
    });
  });

  it('gives a sort without order its column’s default, as the server does', () => {
    expect(read('sort=stars').sort).toEqual({ key: 'stars', direction: 'desc' });
    expect(read('sort=name').sort).toEqual({ key: 'name', direction: 'asc' });
    expect(read('sort=last_commit').sort).toEqual({ key: 'last_commit', direction: 'asc' });
  });

  it('leaves out what the server would refuse: unknown sorts, negative stars, an inverted range, bad flags', () => {
    const view = read('sort=owner&order=up&view=grid&per_row=7&min_stars=-1&archived=maybe&added_by=bob');
    expect(view.sort).toEqual(DEFAULT_SORT);
    expect(view.layout).toBe('table');
    expect(view.density).toBe(3);
    expect(view.filters).toEqual({});
    // An invalid range is ignored in filtering.
    expect(read('min_stars=500&max_stars=100').filters).toEqual({});
    expect(read('min_stars=100&max_stars=500').filters).toEqual({ min_stars: 100, max_stars: 500 });
  });

  it('writes only what differs from the defaults, and keeps other parameters', () => {
    const start = new URLSearchParams('keep=1&q=old');
    const written = writeListView(start, {
      search: 'deno',
      sort: { key: 'name', direction: 'asc' },
      layout: 'cards',
      density: 3,
      filters: { tags: 'runtime', max_stars: 5 },
    });
    expect(written.toString()).toBe('keep=1&q=deno&sort=name&order=asc&view=cards&tags=runtime&max_stars=5');
    const back = writeListView(written, { search: '', sort: DEFAULT_SORT, layout: 'table', filters: {} });
    expect(back.toString()).toBe('keep=1');
    // Written and read again, a view is the same view.
    expect(readListView(written)).toMatchObject({
      search: 'deno',
      sort: { key: 'name', direction: 'asc' },
      filters: { tags: 'runtime', max_stars: 5 },
    });
  });

  it('asks the server for the trimmed search, the filters and the sort', () => {
    expect(listQuery('  react ', { sort: DEFAULT_SORT, filters: { gone: true } })).toEqual({
      q: 'react',
      gone: true,
      sort: 'last_commit',
      order: 'desc',
    });
    expect(listQuery('   ', { sort: DEFAULT_SORT, filters: {} })).toEqual({
      sort: 'last_commit',
      order: 'desc',
    });
  });

  it('shows active filters as chips, and removes them one by one', () => {
    const filters = {
      tags: 'ui, web',
      topics: 'cli',
      license: 'No License',
      language: 'Go',
      min_stars: 10,
      archived: true,
      gone: false,
      added_by: 'me' as const,
    };
    expect(filterChips(filters).map((chip) => chip.label)).toEqual([
      'Tags: ui, web',
      'Topic: cli',
      'License: No License',
      'Language: Go',
      'Stars: ≥ 10',
      'Archived',
      'On GitHub',
      'Added by me',
    ]);
    expect(filterChips({ status: 'adopt,none' })[0]?.label).toBe('Status: Adopt, No status');
    expect(filterChips({ min_stars: 1, max_stars: 9 })[0]?.label).toBe('Stars: 1–9');
    expect(filterChips({ max_stars: 9 })[0]?.label).toBe('Stars: ≤ 9');
    expect(removeFilter({ min_stars: 1, max_stars: 9, tags: 'a' }, 'stars')).toEqual({ tags: 'a' });
    expect(removeFilter({ tags: 'a', gone: true }, 'tags')).toEqual({ gone: true });
  });

  it('minimum 30-day growth: read from the address, a chip, removable', () => {
    const view = readListView(new URLSearchParams('min_growth_30d=1500&sort=growth_30d'));
    expect(view.filters).toEqual({ min_growth_30d: 1500 });
    expect(view.sort).toEqual({ key: 'growth_30d', direction: 'desc' });
    expect(readListView(new URLSearchParams('min_growth_30d=-5')).filters).toEqual({ min_growth_30d: -5 });
    expect(readListView(new URLSearchParams('min_growth_30d=1.5')).filters).toEqual({});
    expect(writeListView(new URLSearchParams(), { filters: { min_growth_30d: 20 } }).toString()).toBe(
      'min_growth_30d=20',
    );
    expect(filterChips({ min_growth_30d: 1500 }).map((chip) => chip.label)).toEqual([
      'Growth (30 days) ≥ +1,500',
    ]);
    expect(removeFilter({ min_growth_30d: 5, tags: 'a' }, 'min_growth_30d')).toEqual({ tags: 'a' });
  });

  it('health grades and the advisories floor: read from the address, chips, removable', () => {
    const view = readListView(new URLSearchParams('health=at_risk,watch&advisories=high&sort=health'));
    expect(view.filters).toEqual({ health: 'at_risk,watch', advisories: 'high' });
    expect(view.sort).toEqual({ key: 'health', direction: 'desc' });
    // What the server would refuse is left out.
    expect(readListView(new URLSearchParams('health=great&advisories=severe')).filters).toEqual({});
    expect(
      writeListView(new URLSearchParams(), {
        filters: { health: 'healthy', advisories: 'critical' },
      }).toString(),
    ).toBe('health=healthy&advisories=critical');
    expect(filterChips(view.filters).map((chip) => chip.label)).toEqual([
      'Health: At risk, Watch',
      'Open advisories: high or worse',
    ]);
    expect(filterChips({ advisories: 'critical' })[0]?.label).toBe('Open advisories: critical');
    expect(filterChips({ advisories: 'unknown' })[0]?.label).toBe('Open advisories: any');
    expect(removeFilter(view.filters, 'health')).toEqual({ advisories: 'high' });
    expect(removeFilter(view.filters, 'advisories')).toEqual({ health: 'at_risk,watch' });
  });
});
