import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { catalogueDouble } from '../../../../../test/web/catalogue-double.ts';
import { jsonResponse, renderApp, signIn, testVersion } from '../../../../../test/web/render.tsx';
import { buildRepository } from '../../../../../test/web/repository-fixtures.ts';

const FULL_NAME = 'octo/widget';

function open(repository: Repository, badges: boolean) {
  signIn();
  return renderApp({
    route: `/repo/${encodeRouteId(repository.id)}`,
    version: { ...testVersion, badges },
    handlers: {
      ...catalogueDouble([]).handlers,
      'GET /repositories/octo%2Fwidget': () => jsonResponse({ repository }),
      'GET /api/get-versions': () => jsonResponse({ versions: repository.versions }),
    },
  });
}

/** The page, and the version answer the card waits for (the footer shows it). */
async function loaded() {
  await screen.findByRole('heading', { level: 1, name: 'widget' });
  await screen.findByText(`v${testVersion.api_version}`, { exact: false });
}

describe('Badges card', () => {
  it('offers each badge with its Markdown and HTML, and copies them', async () => {
    const { user } = open(buildRepository({ id: FULL_NAME }), true);
    const card = (await screen.findByRole('heading', { level: 2, name: 'Badges' })).closest('section');
    if (!card) throw new Error('no Badges section');
    const origin = window.location.origin;
    const image = `${origin}/badge/octo/widget/stars.svg`;
    expect(within(card).getByRole('img', { name: 'Stars badge' })).toHaveAttribute('src', image);
    for (const kind of ['growth', 'health', 'release', 'advisories']) {
      expect(within(card).getByDisplayValue(new RegExp(`/badge/octo/widget/${kind}\\.svg\\)`))).toBeVisible();
    }
    expect(within(card).queryByDisplayValue(/status\.svg/)).toBeNull();
    const markdown = `[![stars](${image})](https://github.com/octo/widget)`;
    expect(within(card).getByRole('textbox', { name: 'Stars badge, Markdown' })).toHaveValue(markdown);
    expect(within(card).getByRole('textbox', { name: 'Stars badge, HTML' })).toHaveValue(
      `<a href="https://github.com/octo/widget"><img src="${image}" alt="stars"></a>`,
    );
    await user.click(within(card).getByRole('button', { name: "Copy the stars badge's Markdown" }));
    expect(await navigator.clipboard.readText()).toBe(markdown);
    expect(within(card).getByRole('button', { name: "Copy the stars badge's Markdown" })).toHaveTextContent(
      'Copied',
    );
  });

  it('is not there when the server has badges off', async () => {
    open(buildRepository({ id: FULL_NAME }), false);
    await loaded();
    expect(screen.getByText('Information')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Badges' })).toBeNull();
  });

  it('is not there for a private repository', async () => {
    open(buildRepository({ id: FULL_NAME, private: true }), true);
    await loaded();
    expect(screen.queryByRole('heading', { name: 'Badges' })).toBeNull();
  });
});
