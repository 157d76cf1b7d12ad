import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { tagColors } from '#shared/tag-colors.ts';
import { renderWithCatalogue } from '../../../../test/web/catalogue-double.ts';
import { buildRepositorySummary, type FetchHandler, failingOnce } from '../../../../test/web/render.tsx';

function row(id: string, tags: string, overrides: Partial<RepositorySummary> = {}): RepositorySummary {
  return buildRepositorySummary({
    id,
    tags,
    description: `About ${id}`,
    license: 'MIT',
    stars: 10,
    ...overrides,
  });
}

const rows = [
  row('facebook/react', 'frontend,UI', { stars: 200 }),
  row('vuejs/core', 'Frontend', { stars: 300 }),
  row('rust-lang/rust', 'compiler, systems'),
];

function openTags(route = '/tags', data: RepositorySummary[] = rows) {
  return renderWithCatalogue(route, data);
}

describe('tags page', () => {
  it('lists every tag with its repository count from GET /tags, sorted by name, in its colour', async () => {
    const { catalogue } = openTags();
    const list = await screen.findByRole('list', { name: 'All tags' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('aria-label'))).toEqual([
      'compiler: 1 repository',
      'frontend: 2 repositories',
      'systems: 1 repository',
      'UI: 1 repository',
    ]);
    const frontend = links[1] as HTMLElement;
    expect(frontend.style.getPropertyValue('--tag-light-bg')).toBe(tagColors('frontend').light.background);
    expect(frontend.style.getPropertyValue('--tag-dark-fg')).toBe(tagColors('FRONTEND').dark.color);
    expect(catalogue.requests('GET /tags')).toHaveLength(1);
  });

  it('opens a tag’s repositories (most starred first, a page from the server), links them to their detail page, and goes back', async () => {
    const { user, catalogue } = openTags();
    const list = await screen.findByRole('list', { name: 'All tags' });
    await user.click(within(list).getByRole('link', { name: 'frontend: 2 repositories' }));
    expect(await screen.findByRole('heading', { name: 'Repositories tagged frontend' })).toBeVisible();
    expect(window.location.hash).toBe('#/tags?tag=frontend');
    const repoLinks = screen
      .getAllByRole('link')
      .filter((link) => link.getAttribute('href')?.startsWith('#/repo/'));
    expect(repoLinks.map((link) => link.textContent)).toEqual(['vuejs/core', 'facebook/react']);
    expect(repoLinks[1]?.getAttribute('href')).toBe(`#/repo/${encodeRouteId('facebook/react')}`);
    expect(Object.fromEntries(catalogue.requests().at(-1) ?? [])).toEqual({
      tags: 'frontend',
      sort: 'stars',
      order: 'desc',
      limit: '100',
    });
    expect(screen.getByRole('link', { name: 'Open in the list' }).getAttribute('href')).toBe(
      '#/home?tags=frontend',
    );

    await user.click(screen.getByRole('button', { name: 'Back to all tags' }));
    expect(await screen.findByRole('list', { name: 'All tags' })).toBeVisible();
    expect(window.location.hash).toBe('#/tags');

    await user.click(
      within(screen.getByRole('list', { name: 'All tags' })).getByRole('link', { name: /^UI/ }),
    );
    await user.click(await screen.findByRole('link', { name: 'facebook/react' }));
    expect(window.location.hash).toBe(`#/repo/${encodeRouteId('facebook/react')}`);
  });

  it('says so when no repository carries the tag', async () => {
    openTags('/tags?tag=nothing');
    expect(await screen.findByText('No repositories carry this tag.')).toBeVisible();
  });

  it('has an empty state', async () => {
    openTags('/tags', [row('a/b', '')]);
    expect(await screen.findByText('No tags yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Repositories' }).getAttribute('href')).toBe('#/add');
  });

  it("says 'Failed to load tags. Please try again.' and retries", async () => {
    const { user } = renderWithCatalogue('/tags', rows, (catalogue) => ({
      'GET /tags': failingOnce(catalogue.handlers['GET /tags'] as FetchHandler),
    }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load tags. Please try again.')).toBeVisible();
    await act(async () => user.click(within(alert).getByRole('button', { name: 'Retry' })));
    expect(await screen.findByRole('list', { name: 'All tags' })).toBeVisible();
  });

  it('pages through a tag’s repositories 100 at a time with Show more', async () => {
    const many = Array.from({ length: 130 }, (_, i) =>
      row(`bulk/repo-${String(i).padStart(3, '0')}`, 'bulk', { stars: 1000 - i }),
    );
    const { user, catalogue } = openTags('/tags?tag=bulk', many);
    expect(await screen.findByText('130 repositories')).toBeVisible();
    const repoLinks = () =>
      screen.getAllByRole('link').filter((link) => link.getAttribute('href')?.startsWith('#/repo/'));
    expect(repoLinks()).toHaveLength(100);
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(repoLinks()).toHaveLength(130));
    expect(repoLinks().at(-1)?.textContent).toBe('bulk/repo-129');
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(catalogue.requests().at(-1)?.get('cursor')).toBeTruthy();
  });
});
