import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { encodeRouteId } from '#shared/route-id.ts';
import type { Radar, RadarBlip, RadarEdition } from '#shared/schemas/radar.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderWithProviders,
  signIn,
  testVersion,
} from '../../../../test/web/render.tsx';
import RadarRoute from './radar.tsx';

const QUADRANTS = [
  { key: 'languages', name: 'Languages & Frameworks' },
  { key: 'libraries', name: 'Libraries' },
  { key: 'tools', name: 'Tools' },
  { key: 'platforms', name: 'Platforms' },
];

function blip(number: number, fullName: string, overrides: Partial<RadarBlip> = {}): RadarBlip {
  return {
    number,
    repository_id: fullName,
    full_name: fullName,
    quadrant: 'libraries',
    status: 'adopt',
    moved: null,
    rationale: `Why ${fullName}`,
    health_grade: 'healthy',
    at_risk: false,
    at_risk_causes: [],
    ...overrides,
  };
}

const edition: RadarEdition = {
  id: 7,
  name: '2026 Q3',
  published_at: '2026-09-30T12:00:00Z',
  published_by: { id: 1, username: 'admin' },
  blip_count: 3,
};

const fixture: Radar = {
  quadrants: QUADRANTS,
  rings: ['adopt', 'trial', 'assess', 'hold'],
  blips: [
    blip(1, 'lang/one', { quadrant: 'languages', moved: 'new' }),
    blip(2, 'lib/react', { moved: 'in', rationale: 'We build **every** screen with it.' }),
    blip(3, 'lib/old', {
      status: 'trial',
      moved: 'out',
      at_risk: true,
      at_risk_causes: ['health_at_risk', 'advisory'],
    }),
    blip(4, 'tool/gone', { quadrant: 'tools', status: 'hold', repository_id: null }),
  ],
  retired: [
    { repository_id: 'plat/legacy', full_name: 'plat/legacy', quadrant: 'platforms', rationale: 'Replaced.' },
  ],
  reviews_due: [
    { repository_id: 'lib/react', full_name: 'lib/react', review_by: '2026-11-01', decision_id: 9 },
  ],
  edition: null,
  previous_edition: edition,
};

function openRadar(handlers: Record<string, FetchHandler> = {}, admin = false, route = '/radar') {
  signIn(buildUser({ is_admin: admin }));
  return renderWithProviders(<RadarRoute />, {
    route,
    handlers: {
      'GET /radar': () => jsonResponse(fixture),
      'GET /radar/editions': () => jsonResponse({ editions: [edition] }),
      'GET /tags': () => jsonResponse({ tags: [{ name: 'frontend', count: 2 }], suggestions: [] }),
      'GET /radar/quadrants': () => jsonResponse({ quadrants: QUADRANTS, decisions_by: 'members' }),
      ...handlers,
    },
  });
}

const repoHash = (fullName: string) => `#/repo/${encodeRouteId(fullName)}`;

describe('radar screen', () => {
  it('draws numbered blips named with their ring, quadrant and move, and a legend linking each', async () => {
    openRadar();
    const drawing = await screen.findByRole('group', { name: /Technology radar: 4 repositories/ });
    expect(
      within(drawing).getByRole('link', { name: '1. lang/one, Adopt, Languages & Frameworks, new' }),
    ).toBeVisible();
    expect(
      within(drawing).getByRole('link', { name: '2. lib/react, Adopt, Libraries, moved in' }),
    ).toBeVisible();
    expect(
      within(drawing).getByRole('link', {
        name: '3. lib/old, Trial, Libraries, moved out, at risk: health at risk, open high or critical advisory',
      }),
    ).toBeVisible();
    // A deleted repository in an edition: drawn, but no link.
    expect(within(drawing).getByRole('img', { name: '4. tool/gone, Hold, Tools' })).toBeVisible();

    const libraries = screen.getByRole('region', { name: 'Libraries' });
    const adopt = within(libraries).getByRole('list', { name: 'Libraries: Adopt' });
    expect(adopt).toHaveTextContent('2. lib/react ▲ moved in');
    expect(within(adopt).getByRole('link', { name: 'lib/react' })).toHaveAttribute(
      'href',
      repoHash('lib/react'),
    );
    expect(within(libraries).getByRole('list', { name: 'Libraries: Trial' })).toHaveTextContent(
      '3. lib/old ▼ moved out ! at risk: health at risk, open high or critical advisory',
    );
    expect(within(screen.getByRole('region', { name: 'Tools' })).queryByRole('link')).toBeNull();
    expect(screen.getByRole('list', { name: 'Languages & Frameworks: Adopt' })).toHaveTextContent('★ new');
    expect(
      within(screen.getByRole('region', { name: 'Platforms' })).getByText('Nothing in this quadrant.'),
    ).toBeVisible();
  });

  it('marks moves and risk on the drawing, with a key', async () => {
    const { container } = openRadar();
    await screen.findByRole('group', { name: /Technology radar/ });
    const mark = (number: number) => container.querySelector(`[data-blip="${number}"]`) as SVGGElement;
    expect(mark(1).querySelector('circle[stroke-dasharray]')).not.toBeNull();
    expect(mark(2).querySelector('polygon')).not.toBeNull();
    expect(mark(3).querySelector('polygon')).not.toBeNull();
    expect(mark(3).textContent).toContain('!');
    expect(mark(4).querySelector('polygon')).toBeNull();
    const key = screen.getByRole('list', { name: 'Key' });
    expect(key).toHaveTextContent('New since the previous edition');
    expect(key).toHaveTextContent('Moved in, towards Adopt');
    expect(key).toHaveTextContent('Moved out, away from Adopt');
    expect(key).toHaveTextContent('In use but at risk');
  });

  it('lists the adopted repositories at risk with their causes, reviews due and Retired apart', async () => {
    openRadar();
    const atRisk = await screen.findByRole('region', { name: 'Adopted but at risk' });
    expect(atRisk).toHaveTextContent('3. lib/old · Trial');
    expect(atRisk).toHaveTextContent('health at risk, open high or critical advisory');
    expect(within(atRisk).getByRole('link', { name: 'lib/old' })).toHaveAttribute(
      'href',
      repoHash('lib/old'),
    );

    const reviews = screen.getByRole('region', { name: 'Reviews due' });
    expect(within(reviews).getByRole('link', { name: 'lib/react' })).toHaveAttribute(
      'href',
      repoHash('lib/react'),
    );
    expect(reviews).toHaveTextContent(/review by (1 Nov|Nov 1,) 2026/);

    const retired = screen.getByRole('region', { name: 'Retired' });
    expect(retired).toHaveTextContent('plat/legacy · Platforms');
  });

  it('shows a blip’s details on focus and opens its repository with Enter or a click', async () => {
    openRadar();
    const react = await screen.findByRole('link', { name: /^2\. lib\/react/ });
    act(() => react.focus());
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('2. lib/react');
    expect(tooltip).toHaveTextContent('Adopt · Libraries · moved in');
    expect(tooltip).toHaveTextContent('We build **every** screen with it.');
    expect(react).toHaveAttribute('aria-describedby', tooltip.id);

    fireEvent.keyDown(react, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.keyDown(react, { key: 'Enter' });
    await waitFor(() => expect(window.location.hash).toBe(repoHash('lib/react')));
    const old = screen.getByRole('link', { name: /^3\. lib\/old/ });
    fireEvent.click(old);
    await waitFor(() => expect(window.location.hash).toBe(repoHash('lib/old')));
  });

  it('asks the server for a tag’s radar and an edition', async () => {
    const calls: string[] = [];
    const { user } = openRadar({
      'GET /radar': (request) => {
        calls.push(new URL(request.url).search);
        return jsonResponse(fixture);
      },
    });
    await screen.findByRole('group', { name: /Technology radar/ });
    await user.click(screen.getByRole('combobox', { name: 'Tag' }));
    await user.click(await screen.findByRole('option', { name: 'frontend' }));
    await waitFor(() => expect(calls.at(-1)).toBe('?tag=frontend'));
    await user.click(screen.getByRole('combobox', { name: 'Edition' }));
    await user.click(await screen.findByRole('option', { name: /2026 Q3/ }));
    await waitFor(() => expect(calls.at(-1)).toBe('?tag=frontend&edition=7'));
  });

  it('downloads the drawing as a standalone SVG, colours fixed and no focus wiring', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:radar';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    // The download link's click would navigate happy-dom's window to the blob's address.
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = openRadar();
    await user.click(await screen.findByRole('button', { name: 'Download SVG' }));
    expect(blobs).toHaveLength(1);
    const text = await (blobs[0] as Blob).text();
    expect(text).toMatch(/^<\?xml/);
    expect(text).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(text).toContain('<title>Radar</title>');
    expect(text).toContain('#1971c2');
    expect(text).not.toContain('var(--');
    expect(text).not.toMatch(/tabindex|role=|aria-/);
    expect(text).toContain('>2</text>');
    expect(click).toHaveBeenCalledOnce();
    vi.restoreAllMocks();
  });

  it('explains how to put a repository on an empty radar', async () => {
    openRadar({ 'GET /radar': () => jsonResponse({ ...fixture, blips: [], retired: [], reviews_due: [] }) });
    expect(await screen.findByRole('heading', { name: 'The radar is empty' })).toBeVisible();
    expect(screen.getByText(/Decision tab and set a status/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Download SVG' })).toBeNull();
  });

  it('lets an admin publish an edition, showing the API’s refusal', async () => {
    const { user } = openRadar(
      { 'POST /radar/editions': () => errorResponse(409, 'An edition named "2026 Q3" exists.') },
      true,
    );
    await user.click(await screen.findByRole('button', { name: 'Publish edition' }));
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), '2026 Q3');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An edition named "2026 Q3" exists.');
  });

  it('compares the two latest editions in a table', async () => {
    const later: RadarEdition = { ...edition, id: 8, name: '2026 Q4', published_at: '2026-11-01T12:00:00Z' };
    const { user } = openRadar({
      'GET /radar/editions': () => jsonResponse({ editions: [later, edition] }),
      'GET /radar/editions/7/compare/8': () =>
        jsonResponse({
          from: edition,
          to: later,
          moves: [
            {
              repository_id: 'lib/react',
              full_name: 'lib/react',
              from: { status: 'trial', quadrant: 'libraries' },
              to: { status: 'adopt', quadrant: 'libraries' },
              direction: 'in',
              rationale: 'Proven.',
            },
            {
              repository_id: null,
              full_name: 'tool/gone',
              from: { status: 'hold', quadrant: 'tools' },
              to: null,
              direction: null,
              rationale: 'Deleted.',
            },
          ],
        }),
    });
    await user.click(await screen.findByRole('button', { name: 'Compare editions' }));
    const table = await screen.findByRole('table', { name: 'What moved from 2026 Q3 to 2026 Q4' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('lib/reactTrial · LibrariesAdopt · Libraries↑ inProven.');
    expect(within(rows[1] as HTMLElement).getByRole('link', { name: 'lib/react' })).toHaveAttribute(
      'href',
      repoHash('lib/react'),
    );
    expect(rows[2]).toHaveTextContent('tool/goneHold · Tools—leftDeleted.');
  });

  it('offers no Publish edition to members', async () => {
    openRadar();
    await screen.findByRole('group', { name: /Technology radar/ });
    expect(screen.queryByRole('button', { name: 'Publish edition' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download CSV (build-your-own-radar)' })).toBeVisible();
    expect(screen.getByText(/Retired is left out of this file/)).toBeVisible();
  });
});

describe('publishing an edition publicly', () => {
  const on = () => jsonResponse({ ...testVersion, public_pages: true });
  const address = 'http://catalogue.test/p/radar/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

  it('offers no Publish publicly when public pages are off', async () => {
    openRadar({}, true, '/radar?edition=7');
    expect(await screen.findByRole('button', { name: 'Publish edition' })).toBeVisible();
    await screen.findByRole('group', { name: /Technology radar/ });
    expect(screen.queryByRole('button', { name: 'Publish publicly' })).toBeNull();
  });

  it('offers no Publish publicly to members', async () => {
    openRadar({ 'GET /version': on }, false, '/radar?edition=7');
    await screen.findByRole('group', { name: /Technology radar/ });
    expect(screen.queryByRole('button', { name: 'Publish publicly' })).toBeNull();
  });

  it('publishes the shown edition with its rationales, shows the address to copy, and unpublishes', async () => {
    const sent: unknown[] = [];
    const calls: string[] = [];
    let current: unknown = null;
    const { user } = openRadar(
      {
        'GET /version': on,
        'GET /radar/editions/7/publish': () => jsonResponse({ publication: current }),
        'POST /radar/editions/7/publish': async (request) => {
          sent.push(await request.json());
          current = {
            url: address,
            fields: [],
            include_rationales: true,
            published_at: '2026-11-29T05:00:00Z',
          };
          return jsonResponse(current, { status: 201 });
        },
        'DELETE /radar/editions/7/publish': () => {
          calls.push('DELETE');
          current = null;
          return new Response(null, { status: 204 });
        },
      },
      true,
      '/radar?edition=7',
    );
    await user.click(await screen.findByRole('button', { name: 'Publish publicly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish “2026 Q3” publicly' });
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Include rationales' }));
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(sent).toEqual([{ include_rationales: true }]));
    expect(await within(dialog).findByRole('textbox', { name: 'Public address' })).toHaveValue(address);
    expect(within(dialog).getByRole('button', { name: 'Copy the address' })).toBeVisible();
    expect(within(dialog).getByText(/With rationales\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Unpublish' }));
    await waitFor(() => expect(calls).toEqual(['DELETE']));
    expect(await screen.findByText('“2026 Q3” is no longer public.')).toBeVisible();
  });
});
