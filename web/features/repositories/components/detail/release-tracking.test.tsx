import { screen, within } from '@testing-library/react';
import { describe, expect, it, type vi } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { Repository, Version } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../../test/web/catalogue-double.ts';
import {
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../../test/web/render.tsx';
import { buildRepository } from '../../../../../test/web/repository-fixtures.ts';

const FULL_NAME = 'octo/widget';
const PATH = '/repositories/octo%2Fwidget';

function version(id: number, number: string, overrides: Partial<Version> = {}): Version {
  return {
    id,
    version_number: number,
    release_date: '2026-08-01',
    description: null,
    created_at: `2026-08-0${id}T10:00:00.000Z`,
    source: 'manual',
    release_url: null,
    ...overrides,
  };
}

function open(repository: Repository, handlers: Record<string, FetchHandler> = {}) {
  signIn();
  return renderApp({
    route: `/repo/${encodeRouteId(repository.id)}?tab=versions`,
    handlers: {
      ...catalogueDouble([]).handlers,
      [`GET ${PATH}`]: () => jsonResponse({ repository }),
      'GET /api/get-versions': () => jsonResponse({ versions: repository.versions }),
      ...handlers,
    },
  });
}

function requestsTo(fetchMock: ReturnType<typeof vi.fn>, method: string, pathname: string): Request[] {
  return fetchMock.mock.calls
    .map(([input, init]) => new Request(input as RequestInfo, init as RequestInit))
    .filter((request) => request.method === method && new URL(request.url).pathname === pathname);
}

describe('Version Tracker: releases', () => {
  it('shows where each version came from and links to its GitHub release', async () => {
    open(
      buildRepository({
        id: FULL_NAME,
        versions: [
          version(1, 'v1.0.0'),
          version(2, 'v2.0.0', {
            source: 'release',
            description: 'Big one\nFaster',
            release_url: 'https://github.com/octo/widget/releases/tag/v2.0.0',
          }),
        ],
        release_tracking: {
          include_prereleases: false,
          tag_pattern: '',
          follows: 'releases',
          checked_at: '2026-08-03T10:00:00.000Z',
        },
      }),
    );
    const list = await screen.findByRole('list', { name: 'Versions' });
    const [newest, oldest] = within(list).getAllByRole('listitem');
    expect(within(newest as HTMLElement).getByText('Release')).toBeVisible();
    expect(within(newest as HTMLElement).getByText(/Big one/)).toBeVisible();
    expect(
      within(newest as HTMLElement).getByRole('link', { name: 'View release v2.0.0 on GitHub' }),
    ).toHaveAttribute('href', 'https://github.com/octo/widget/releases/tag/v2.0.0');
    expect(within(oldest as HTMLElement).getByText('Manual')).toBeVisible();
    expect(within(oldest as HTMLElement).queryByRole('link')).toBeNull();
    expect(screen.getByText(/New GitHub releases become versions\./)).toBeVisible();
  });

  it('refuses a bad tag pattern with the shared message, and saves good settings', async () => {
    const { user, fetchMock } = open(buildRepository({ id: FULL_NAME }), {
      [`PUT ${PATH}/release-settings`]: async (request) => {
        const body = (await request.json()) as { include_prereleases: boolean; tag_pattern: string };
        return jsonResponse({ release_tracking: { ...body, follows: 'tags', checked_at: null } });
      },
    });
    const region = await screen.findByRole('region', { name: 'Release tracking' });
    expect(within(region).getByText('Releases are read at the next update from GitHub.')).toBeVisible();
    const pattern = within(region).getByRole('textbox', { name: /Tag pattern/ });
    await user.type(pattern, 'v*, !');
    await user.click(within(region).getByRole('button', { name: 'Save' }));
    expect(
      await within(region).findByText('A "!" must be followed by the tags to leave out, for example !*-rc*.'),
    ).toBeVisible();
    expect(requestsTo(fetchMock, 'PUT', `${PATH}/release-settings`)).toHaveLength(0);

    await user.clear(pattern);
    await user.type(pattern, ' v*, !*-rc* ');
    await user.click(within(region).getByRole('switch', { name: /Include pre-releases/ }));
    await user.click(within(region).getByRole('button', { name: 'Save' }));
    expect(await within(region).findByText('✅ Saved!')).toBeVisible();
    const [request] = requestsTo(fetchMock, 'PUT', `${PATH}/release-settings`);
    expect(await request?.json()).toEqual({ include_prereleases: true, tag_pattern: 'v*, !*-rc*' });
    expect(within(region).getByText(/new tags become versions/)).toBeVisible();
  });

  it('says why saving failed', async () => {
    const { user } = open(buildRepository({ id: FULL_NAME }), {
      [`PUT ${PATH}/release-settings`]: () => errorResponse(500, 'disk full'),
    });
    const region = await screen.findByRole('region', { name: 'Release tracking' });
    await user.click(within(region).getByRole('button', { name: 'Save' }));
    expect(await within(region).findByText('❌ Failed to save: disk full')).toBeVisible();
  });
});
