import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FeedTokenStatus } from '#shared/schemas/activity.ts';
import { errorResponse, jsonResponse, renderWithProviders, signIn } from '../../../../test/web/render.tsx';
import { FeedTokenCard } from './feed-token-card.tsx';

const FEED_URL = 'https://tracker.example.org/feeds/activity.atom?token=abc_DEF-123';

function feedTokenApi(initial: FeedTokenStatus) {
  let status = initial;
  const calls: string[] = [];
  return {
    calls,
    handlers: {
      'GET /auth/me/feed-token': () => jsonResponse(status),
      'POST /auth/me/feed-token': () => {
        calls.push('POST');
        status = { exists: true, created_at: '2026-11-25T10:00:00.000Z', last_used_at: null };
        return jsonResponse({ token: 'abc_DEF-123', feed_url: FEED_URL, created_at: status.created_at });
      },
      'DELETE /auth/me/feed-token': () => {
        calls.push('DELETE');
        status = { exists: false, created_at: null, last_used_at: null };
        return jsonResponse(status);
      },
    },
  };
}

describe('FeedTokenCard', () => {
  it('creates the feed address and shows it once, to copy', async () => {
    signIn();
    const api = feedTokenApi({ exists: false, created_at: null, last_used_at: null });
    const { user } = renderWithProviders(<FeedTokenCard />, { handlers: api.handlers });
    expect(await screen.findByText('Not set up')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create feed address' }));
    expect(await screen.findByRole('textbox', { name: 'Your feed address' })).toHaveValue(FEED_URL);
    expect(screen.getByText('Feed address created.')).toBeVisible();
    expect(screen.getByText(/shown only this once/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect(screen.getByText('Active')).toBeVisible();
    expect(api.calls).toEqual(['POST']);
  });

  it('regenerates and revokes only after a confirmation', async () => {
    signIn();
    const api = feedTokenApi({
      exists: true,
      created_at: '2026-11-01T09:00:00.000Z',
      last_used_at: '2026-11-20T09:00:00.000Z',
    });
    const { user } = renderWithProviders(<FeedTokenCard />, { handlers: api.handlers });
    expect(await screen.findByText(/^Created .*\. Last read by a feed reader .*\.$/)).toBeVisible();
    // The token is never shown again: only that there is one.
    expect(screen.queryByRole('textbox', { name: 'Your feed address' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Regenerate address' }));
    const regenerate = await screen.findByRole('dialog', { name: 'Make a new feed address?' });
    expect(api.calls).toEqual([]);
    await user.click(within(regenerate).getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByRole('textbox', { name: 'Your feed address' })).toHaveValue(FEED_URL);
    expect(screen.getByText('A new feed address was made; the old one no longer works.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke the feed address?' });
    await user.click(within(revoke).getByRole('button', { name: 'Revoke' }));
    expect(
      await screen.findByText('Feed address revoked: feed readers using it get nothing now.'),
    ).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Your feed address' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Create feed address' })).toBeVisible();
    expect(api.calls).toEqual(['POST', 'DELETE']);
  });

  it('shows a failed status load with Retry, and a failed creation as a message', async () => {
    signIn();
    let loads = 0;
    const { user } = renderWithProviders(<FeedTokenCard />, {
      handlers: {
        'GET /auth/me/feed-token': () => {
          loads += 1;
          return loads === 1
            ? errorResponse(500, 'down')
            : jsonResponse({ exists: false, created_at: null, last_used_at: null });
        },
        'POST /auth/me/feed-token': () =>
          errorResponse(429, 'Too many requests. Please try again in 1 minutes.'),
      },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The activity feed status could not be loaded.')).toBeVisible();
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await user.click(await screen.findByRole('button', { name: 'Create feed address' }));
    expect(await screen.findByText(/Too many requests/)).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'Your feed address' })).toBeNull();
  });
});
