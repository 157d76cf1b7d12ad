import { describe, expect, it } from 'vitest';
import { buildSummary } from '../../../../test/web/repository-fixtures.ts';
import {
  buildSearchIndex,
  DEFAULT_SORT,
  defaultDirection,
  nextSort,
  searchRepositories,
  sortRepositories,
} from './list-view.ts';

describe('sort rules', () => {
  it('starts with last_commit descending', () => {
    expect(DEFAULT_SORT).toEqual({ key: 'last_commit', direction: 'desc' });
  });

  it.each(['last_synced', 'created_at', 'updated_at', 'stars', 'forks', 'issues', 'commits'])(
    '%s starts descending',
    (key) => expect(defaultDirection(key)).toBe('desc'),
  );

  it.each(['name', 'description', 'license', 'last_commit'])('%s starts ascending', (key) => {
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

  it('sorts names naturally and case-insensitively, with missing values last either way', () => {
    const rows = [
      buildSummary({ id: 'o/b', name: 'b', description: null, stars: 5 }),
      buildSummary({ id: 'o/A10', name: 'A10', description: 'zeta', stars: 5 }),
      buildSummary({ id: 'o/a9', name: 'a9', description: 'alpha', stars: 1 }),
    ];
    const names = (key: 'name' | 'description' | 'stars', direction: 'asc' | 'desc') =>
      sortRepositories(rows, { key, direction }).map((row) => row.name);
    expect(names('name', 'asc')).toEqual(['a9', 'A10', 'b']);
    expect(names('description', 'asc')).toEqual(['a9', 'A10', 'b']);
    expect(names('description', 'desc')).toEqual(['A10', 'a9', 'b']);
    // Ties keep a stable id order.
    expect(names('stars', 'desc')).toEqual(['A10', 'b', 'a9']);
  });
});

describe('search', () => {
  it('matches name, description, id, tags and licence, case-insensitively, keeping the order', () => {
    const rows = [
      buildSummary({ id: 'x/one', description: 'Fast thing', tags: 'Tooling', license: 'MIT' }),
      buildSummary({ id: 'y/two', description: null, tags: '', license: 'Apache-2.0' }),
    ];
    const index = buildSearchIndex(rows);
    const ids = (query: string) => searchRepositories(rows, index, query).map((row) => row.id);
    expect(ids('')).toEqual(['x/one', 'y/two']);
    expect(ids('FAST')).toEqual(['x/one']);
    expect(ids('y/')).toEqual(['y/two']);
    expect(ids('tooling')).toEqual(['x/one']);
    expect(ids('apache')).toEqual(['y/two']);
    expect(ids('two')).toEqual(['y/two']);
    expect(ids('nothing')).toEqual([]);
  });
});
