import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeRouteId } from '../../../../shared/route-id.ts';
import type { RepositorySummary } from '../../../../shared/schemas/repositories.ts';
import { tagColors } from '../../../../shared/tag-colors.ts';
import {
  buildRepositorySummary,
  type FetchHandler,
  failingOnce,
  jsonResponse,
  renderWithRepositories,
} from '../../../../test/web/render.tsx';

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

function openTags(handler: FetchHandler = () => jsonResponse({ repositories: rows }), route = '/tags') {
  return renderWithRepositories(route, handler);
}

describe('tags page', () => {
  it('lists every tag with its repository count, sorted by name, in its colour', async () => {
    openTags();
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
  });

  it('opens a tag’s repositories, links them to their detail page, and goes back', async () => {
    const { user } = openTags();
    const list = await screen.findByRole('list', { name: 'All tags' });
    await user.click(within(list).getByRole('link', { name: 'frontend: 2 repositories' }));
    expect(await screen.findByRole('heading', { name: 'Repositories tagged frontend' })).toBeVisible();
    expect(window.location.hash).toBe('#/tags?tag=frontend');
    const repoLinks = screen
      .getAllByRole('link')
      .filter((link) => link.getAttribute('href')?.startsWith('#/repo/'));
    expect(repoLinks.map((link) => link.textContent)).toEqual(['vuejs/core', 'facebook/react']);
    expect(repoLinks[1]?.getAttribute('href')).toBe(`#/repo/${encodeRouteId('facebook/react')}`);

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
    openTags(undefined, '/tags?tag=nothing');
    expect(await screen.findByText('No repositories carry this tag.')).toBeVisible();
  });

  it('has an empty state', async () => {
    openTags(() => jsonResponse({ repositories: [row('a/b', '')] }));
    expect(await screen.findByText('No tags yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Add Repositories' }).getAttribute('href')).toBe('#/add');
  });

  it("says 'Failed to load tags. Please try again.' and retries", async () => {
    const { user } = openTags(failingOnce(() => jsonResponse({ repositories: rows })));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load tags. Please try again.')).toBeVisible();
    await act(async () => user.click(within(alert).getByRole('button', { name: 'Retry' })));
    expect(await screen.findByRole('list', { name: 'All tags' })).toBeVisible();
  });
});
