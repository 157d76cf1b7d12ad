import { describe, expect, it } from 'vitest';
import {
  catalogueExportQuerySchema,
  catalogueFilterQuerySchema,
  catalogueListQuerySchema,
  catalogueSearchParams,
  defaultCatalogueOrder,
  isPageRequest,
} from './catalogue.ts';

describe('catalogue query parameters', () => {
  it('parse query-string values into typed ones', () => {
    expect(
      catalogueListQuerySchema.parse({
        q: ' React ',
        archived: 'false',
        gone: '1',
        min_stars: '10',
        max_stars: '10',
        limit: '25',
        sort: 'stars',
        added_by: 'me',
      }),
    ).toEqual({
      q: ' React ',
      archived: false,
      gone: true,
      min_stars: 10,
      max_stars: 10,
      limit: 25,
      sort: 'stars',
      added_by: 'me',
    });
  });

  it('a page is asked for by any parameter, none keeps the whole list', () => {
    expect(isPageRequest(catalogueListQuerySchema.parse({}))).toBe(false);
    expect(isPageRequest(catalogueListQuerySchema.parse({ unknown: 'x' }))).toBe(false);
    expect(isPageRequest(catalogueListQuerySchema.parse({ limit: '50' }))).toBe(true);
    expect(isPageRequest(catalogueListQuerySchema.parse({ q: '' }))).toBe(true);
  });

  it('refuses an inverted star range on min_stars, in every schema', () => {
    for (const schema of [catalogueListQuerySchema, catalogueExportQuerySchema, catalogueFilterQuerySchema]) {
      const result = schema.safeParse({ min_stars: '5', max_stars: '4' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({
        path: ['min_stars'],
        message: 'Minimum stars cannot be greater than maximum.',
      });
    }
  });

  it('a column’s own direction: counts and dates descending, text and last commit ascending', () => {
    expect(defaultCatalogueOrder('stars')).toBe('desc');
    expect(defaultCatalogueOrder('updated_at')).toBe('desc');
    expect(defaultCatalogueOrder('name')).toBe('asc');
    expect(defaultCatalogueOrder('last_commit')).toBe('asc');
  });

  it('catalogueSearchParams writes what the schema reads back', () => {
    const query = {
      q: 'a b&c',
      tags: 'ui,React',
      archived: false,
      min_stars: 0,
      limit: 50,
      cursor: undefined,
    };
    const params = catalogueSearchParams(query);
    expect(params.toString()).toBe('q=a+b%26c&tags=ui%2CReact&archived=false&min_stars=0&limit=50');
    expect(catalogueListQuerySchema.parse(Object.fromEntries(params))).toEqual({
      q: 'a b&c',
      tags: 'ui,React',
      archived: false,
      min_stars: 0,
      limit: 50,
    });
  });
});
