import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_QUADRANTS } from '#shared/schemas/decisions.ts';
import { catalogueDouble } from '../../../../test/web/catalogue-double.ts';
import { jsonResponse, renderApp, setViewportWidth, signIn } from '../../../../test/web/render.tsx';
import { buildSummary } from '../../../../test/web/repository-fixtures.ts';

function openList() {
  signIn();
  const catalogue = catalogueDouble([
    buildSummary({ id: 'a/one', last_commit: '2026-01-03T00:00:00Z' }),
    buildSummary({ id: 'b/two', last_commit: '2026-01-02T00:00:00Z' }),
    buildSummary({ id: 'c/three', last_commit: '2026-01-01T00:00:00Z' }),
  ]);
  const sent: unknown[] = [];
  const rendered = renderApp({
    route: '/home',
    handlers: {
      ...catalogue.handlers,
      'GET /radar/quadrants': () => jsonResponse({ quadrants: DEFAULT_QUADRANTS, decisions_by: 'members' }),
      'POST /repositories/bulk': async (request) => {
        const body = (await request.json()) as { items: string[]; action: string };
        sent.push(body);
        const results = body.items.map((id) =>
          body.action === 'delete' && id === 'b/two'
            ? {
                id,
                ok: false,
                status: 'failed',
                error: 'Only the member who added this repository or an administrator can delete it.',
              }
            : { id, ok: true, status: 'done' },
        );
        const failed = results.filter((result) => !result.ok).length;
        return jsonResponse({ results, succeeded: results.length - failed, failed });
      },
    },
  });
  return { ...rendered, sent };
}

describe('bulk actions on the selection', () => {
  it('selects rows, adds tags to them, and reports the outcome', async () => {
    const { user, sent } = openList();
    await screen.findByText('Showing 3 of 3 repositories');
    expect(screen.queryByRole('region', { name: 'Selected repositories' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select a/one' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select c/three' }));
    const bar = await screen.findByRole('region', { name: 'Selected repositories' });
    expect(within(bar).getByText('2 selected')).toBeVisible();
    expect(
      (screen.getByRole('checkbox', { name: 'Select every repository shown' }) as HTMLInputElement)
        .indeterminate,
    ).toBe(true);

    await user.click(within(bar).getByRole('button', { name: 'Add tags' }));
    await user.type(await screen.findByRole('combobox', { name: 'Tags to add' }), 'web{Enter}');
    await user.click(screen.getByRole('button', { name: 'Add to 2' }));
    await waitFor(() =>
      expect(sent).toEqual([{ items: ['a/one', 'c/three'], action: 'add_tags', tags: 'web' }]),
    );
    expect(await screen.findByText('Tags added to 2 repositories.')).toBeVisible();
  });

  it('sets one status with one rationale on the selection; the rationale rule is the shared one', async () => {
    const { user, sent } = openList();
    await screen.findByText('Showing 3 of 3 repositories');
    await user.click(screen.getByRole('checkbox', { name: 'Select a/one' }));
    const bar = await screen.findByRole('region', { name: 'Selected repositories' });
    await user.click(within(bar).getByRole('button', { name: 'Set status' }));
    await user.click(await screen.findByRole('button', { name: 'Set for 1' }));
    expect(
      await screen.findByText('Say why: a rationale is required for adopt, hold and retired.'),
    ).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: /Rationale/ }), 'Our standard client.');
    await user.click(screen.getByRole('button', { name: 'Set for 1' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          items: ['a/one'],
          action: 'set_status',
          status: 'adopt',
          quadrant: 'languages',
          rationale: 'Our standard client.',
        },
      ]),
    );
    expect(await screen.findByText('Status set on 1 repository.')).toBeVisible();
  });

  it('deletes the whole selection after one confirmation and lists what could not be deleted', async () => {
    const { user, sent } = openList();
    await screen.findByText('Showing 3 of 3 repositories');
    await user.click(screen.getByRole('checkbox', { name: 'Select every repository shown' }));
    const bar = await screen.findByRole('region', { name: 'Selected repositories' });
    expect(within(bar).getByText('3 selected')).toBeVisible();
    await user.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 3 repositories?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(sent).toEqual([{ items: ['a/one', 'b/two', 'c/three'], action: 'delete' }]));
    expect(await screen.findByText('2 repositories deleted.')).toBeVisible();
    expect(
      screen.getByText('b/two: Only the member who added this repository or an administrator can delete it.'),
    ).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected repositories' })).toBeNull());
    // Each notification's close button has a name (the theme gives Mantine's one).
    expect(screen.getAllByRole('button', { name: 'Dismiss' }).length).toBeGreaterThanOrEqual(2);
  });

  it('shows why a bulk update was refused: the budget of updates from GitHub is spent', async () => {
    signIn();
    const catalogue = catalogueDouble([
      buildSummary({ id: 'a/one', last_commit: '2026-01-03T00:00:00Z' }),
      buildSummary({ id: 'b/two', last_commit: '2026-01-02T00:00:00Z' }),
    ]);
    const message =
      'Too many requests: you can update 1 more repository from GitHub in the next 12 minutes. Select fewer, or try again later.';
    const { user } = renderApp({
      route: '/home',
      handlers: {
        ...catalogue.handlers,
        'POST /repositories/bulk': async () =>
          jsonResponse(
            { message, code: 'rate_limited', retry_after: 700 },
            { status: 429, headers: { 'Retry-After': '700' } },
          ),
      },
    });
    await screen.findByText('Showing 2 of 2 repositories');
    await user.click(screen.getByRole('checkbox', { name: 'Select every repository shown' }));
    const bar = await screen.findByRole('region', { name: 'Selected repositories' });
    await user.click(within(bar).getByRole('button', { name: 'Update from GitHub' }));
    expect(await screen.findByText(`Failed: ${message}`)).toBeVisible();
    // The selection stays, to pick fewer.
    expect(within(bar).getByText('2 selected')).toBeVisible();
  });

  it('keeps to one row of named icons on a phone, and its tag form still opens', async () => {
    setViewportWidth(375);
    const { user, sent } = openList();
    // Phones get cards; each has its own checkbox.
    await user.click(await screen.findByRole('checkbox', { name: 'Select b/two' }));
    const bar = await screen.findByRole('region', { name: 'Selected repositories' });
    for (const name of [
      'Add tags',
      'Remove tags',
      'Update from GitHub',
      'Set status',
      'Export',
      'Delete',
      'Clear selection',
    ]) {
      const button = within(bar).getByRole('button', { name });
      expect(button.textContent, name).toBe('');
    }
    await user.click(within(bar).getByRole('button', { name: 'Remove tags' }));
    await user.type(await screen.findByRole('combobox', { name: 'Tags to remove' }), 'web{Enter}');
    await user.click(screen.getByRole('button', { name: 'Remove from 1' }));
    await waitFor(() => expect(sent).toEqual([{ items: ['b/two'], action: 'remove_tags', tags: 'web' }]));
  });
});
