import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Channel, Delivery, Rule } from '#shared/schemas/notifications.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';

const NOW = '2026-11-25T10:00:00.000Z';

function channel(overrides: Partial<Channel> = {}): Channel {
  return {
    id: 1,
    kind: 'webhook',
    name: 'Team hook',
    target: 'hooks.example.com …ab12',
    enabled: true,
    failures: 0,
    last_error: null,
    disabled_reason: null,
    disabled_at: null,
    last_sent_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 1,
    channel_id: 1,
    rule_id: 1,
    kind: 'instant',
    status: 'sent',
    event_count: 1,
    summary: 'acme/web published release v2.0.0',
    attempts: 1,
    last_error: null,
    created_at: NOW,
    sent_at: NOW,
    ...overrides,
  };
}

/** A small stand-in for the notifications API: its state changes with the calls. */
function fakeApi(state: { channels: Channel[]; rules: Rule[]; deliveries: Delivery[] }) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const record = async (request: Request) => {
    const body =
      request.method === 'GET' || request.method === 'DELETE' ? null : await request.json().catch(() => null);
    calls.push({ method: request.method, path: new URL(request.url).pathname, body });
    return body as Record<string, unknown>;
  };
  const base = '/auth/me/notifications';
  const handlers: Record<string, FetchHandler> = {
    [`GET ${base}/channels`]: () => jsonResponse({ channels: state.channels }),
    [`GET ${base}/rules`]: () => jsonResponse({ rules: state.rules }),
    [`GET ${base}/deliveries`]: () => jsonResponse({ deliveries: state.deliveries }),
    'GET /tags': () =>
      jsonResponse({
        tags: [
          { name: 'frontend', count: 3 },
          { name: 'infra', count: 1 },
        ],
        suggestions: [],
      }),
    [`POST ${base}/channels`]: async (request) => {
      const body = await record(request);
      if (String(body.url ?? '').includes('internal')) {
        const message = 'Webhook host internal.example.com resolves to a private or reserved address';
        return errorResponse(400, message, { code: 'validation_failed', fields: { url: message } });
      }
      const created = channel({
        id: state.channels.length + 10,
        kind: body.kind as Channel['kind'],
        name: String(body.name).trim(),
        target: body.url ? 'hooks.example.com …1234' : 'ada@example.com',
      });
      state.channels.push(created);
      return jsonResponse(created, { status: 201 });
    },
    [`POST ${base}/rules`]: async (request) => {
      const body = await record(request);
      const rule: Rule = {
        id: state.rules.length + 1,
        channel_id: Number(body.channel_id),
        event_types: body.event_types as Rule['event_types'],
        tags: body.tags as Rule['tags'],
        min_severity: (body.min_severity as Rule['min_severity'] | undefined) ?? 'high',
        cadence: body.cadence as Rule['cadence'],
        enabled: true,
        created_at: NOW,
        updated_at: NOW,
      };
      state.rules.push(rule);
      return jsonResponse(rule, { status: 201 });
    },
  };
  return { handlers, calls };
}

async function openTab(handlers: Record<string, FetchHandler>, overrides = {}) {
  signIn(buildUser(overrides));
  const rendered = renderApp({ route: '/settings?tab=notifications', handlers });
  // The lazily loaded screen's first load (a cold transform on a busy machine) can take over a second.
  await screen.findByRole('heading', { level: 2, name: 'Channels' }, { timeout: 5000 });
  return rendered;
}

const section = (title: string) =>
  screen.getByRole('heading', { level: 2, name: title }).closest('section') as HTMLElement;

describe('Settings → Notifications', () => {
  it('is a tab of Settings, kept in ?tab=notifications', async () => {
    const api = fakeApi({ channels: [], rules: [], deliveries: [] });
    const { user } = await openTab(api.handlers);
    expect(screen.getByRole('tab', { name: 'Notifications' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('No channels yet. Add one, then a rule that sends to it.')).toBeVisible();
    expect(await screen.findByText('Add a channel first, then a rule that sends to it.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add Rule' })).toBeDisabled();
    expect(
      await screen.findByText('Nothing sent yet. Messages appear here with their outcome.'),
    ).toBeVisible();
    await user.click(screen.getByRole('tab', { name: 'Password' }));
    expect(window.location.hash).toBe('#/settings');
  });

  it('shows each channel’s state, the reason a channel was turned off, and re-enables it', async () => {
    const off = channel({
      id: 2,
      name: 'Discord alerts',
      kind: 'discord',
      target: 'discord.com …wxyz',
      enabled: false,
      failures: 5,
      disabled_reason: 'Turned off after 5 failed sends in a row. Last error: Discord answered HTTP 404',
      disabled_at: NOW,
    });
    const failing = channel({
      id: 3,
      name: 'Flaky hook',
      failures: 2,
      last_error: 'The webhook answered HTTP 503',
    });
    const state = { channels: [channel(), off, failing], rules: [], deliveries: [] };
    const api = fakeApi(state);
    let enabled = 0;
    api.handlers['POST /auth/me/notifications/channels/2/enable'] = () => {
      enabled += 1;
      state.channels[1] = { ...off, enabled: true, failures: 0, disabled_reason: null, disabled_at: null };
      return jsonResponse(state.channels[1]);
    };
    const { user } = await openTab(api.handlers);
    const list = await screen.findByRole('list', { name: 'Channels' });
    const discord = within(list).getByRole('listitem', { name: 'Discord alerts' });
    expect(within(discord).getByText('Turned off', { selector: '.mantine-Badge-label' })).toBeVisible();
    expect(within(discord).getByText(/Last error: Discord answered HTTP 404/)).toBeVisible();
    expect(within(discord).getByText('Discord · discord.com …wxyz')).toBeVisible();
    const flaky = within(list).getByRole('listitem', { name: 'Flaky hook' });
    expect(within(flaky).getByText('Failing (2 of 5)')).toBeVisible();
    expect(within(flaky).getByText('Last error: The webhook answered HTTP 503')).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Team hook' })).toHaveTextContent('Active');

    await user.click(within(discord).getByRole('button', { name: 'Re-enable Discord alerts' }));
    expect(await screen.findByText('Channel "Discord alerts" is on again')).toBeVisible();
    expect(enabled).toBe(1);
    await expect
      .poll(() => within(screen.getByRole('listitem', { name: 'Discord alerts' })).queryByText('Active'))
      .toBeTruthy();
  });

  it('adds a channel: the shared schema’s messages, the server’s field message, then the new channel', async () => {
    const state = { channels: [] as Channel[], rules: [], deliveries: [] };
    const api = fakeApi(state);
    const { user } = await openTab(api.handlers);
    await user.click(screen.getByRole('button', { name: 'Add Channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add channel' });
    await user.click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(await within(dialog).findByText('Channel name is required')).toBeVisible();
    expect(within(dialog).getByText('Webhook URL is required')).toBeVisible();
    expect(api.calls).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Team hook');
    await user.type(
      within(dialog).getByRole('textbox', { name: /^Webhook URL/ }),
      'https://internal.example.com/x',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(
      await within(dialog).findByText(
        'Webhook host internal.example.com resolves to a private or reserved address',
      ),
    ).toBeVisible();

    const url = within(dialog).getByRole('textbox', { name: /^Webhook URL/ });
    await user.clear(url);
    await user.type(url, 'https://hooks.example.com/abc1234');
    await user.click(within(dialog).getByRole('button', { name: 'Add Channel' }));
    expect(await screen.findByText('Channel "Team hook" added')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls.at(-1)).toEqual({
      method: 'POST',
      path: '/auth/me/notifications/channels',
      body: { kind: 'webhook', name: 'Team hook', url: 'https://hooks.example.com/abc1234' },
    });
    expect(await screen.findByRole('listitem', { name: 'Team hook' })).toHaveTextContent(
      'hooks.example.com …1234',
    );
  });

  it('Send test shows the outcome', async () => {
    const api = fakeApi({ channels: [channel()], rules: [], deliveries: [] });
    let answer = { sent: true, message: 'Test message sent' };
    api.handlers['POST /auth/me/notifications/channels/1/test'] = () => jsonResponse(answer);
    const { user } = await openTab(api.handlers);
    const button = await screen.findByRole('button', { name: 'Send test to Team hook' });
    await user.click(button);
    expect(await screen.findByText('Team hook: Test message sent')).toBeVisible();
    answer = { sent: false, message: 'The webhook did not answer in time' };
    await user.click(button);
    // A failure is announced at once (role alert).
    const failure = await screen.findByText('Team hook: The webhook did not answer in time');
    expect(failure.closest('[role="alert"]')).not.toBeNull();
  });

  it('removes a channel after asking', async () => {
    const state = { channels: [channel()], rules: [], deliveries: [] };
    const api = fakeApi(state);
    api.handlers['DELETE /auth/me/notifications/channels/1'] = () => {
      state.channels = [];
      return jsonResponse({ message: 'Channel removed' });
    };
    const { user } = await openTab(api.handlers);
    await user.click(await screen.findByRole('button', { name: 'Remove Team hook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the channel "Team hook"?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove Channel' }));
    expect(await screen.findByText('Channel "Team hook" removed')).toBeVisible();
  });

  it('adds a rule: event types, tags from GET /tags, channel and cadence', async () => {
    const state = {
      channels: [channel(), channel({ id: 4, kind: 'email', name: 'Inbox' })],
      rules: [] as Rule[],
      deliveries: [],
    };
    const api = fakeApi(state);
    const { user } = await openTab(api.handlers);
    const add = screen.getByRole('button', { name: 'Add Rule' });
    await expect.poll(() => add.hasAttribute('disabled')).toBe(false);
    await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add rule' });
    // Every type at once, or a choice; the choice starts with releases.
    expect(within(dialog).getByRole('checkbox', { name: 'All event types' })).not.toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Repositories with any tag (or none)' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Tags' }));
    await user.click(await screen.findByRole('option', { name: 'frontend' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Daily' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await screen.findByText('Rule added')).toBeVisible();
    expect(api.calls.at(-1)?.body).toEqual({
      channel_id: 1,
      event_types: ['release_published'],
      tags: ['frontend'],
      cadence: 'daily',
    });
    const rules = await screen.findByRole('list', { name: 'Rules' });
    expect(within(rules).getByText('Release published')).toBeVisible();
    expect(within(rules).getByText('For tagged frontend, to Team hook')).toBeVisible();
    expect(within(rules).getByText('Daily digest')).toBeVisible();
  });

  it('refuses a rule without event types or tags, with the shared schema’s messages', async () => {
    const api = fakeApi({ channels: [channel()], rules: [], deliveries: [] });
    const { user } = await openTab(api.handlers);
    const add = screen.getByRole('button', { name: 'Add Rule' });
    await expect.poll(() => add.hasAttribute('disabled')).toBe(false);
    await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add rule' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Repositories with any tag (or none)' }));
    const types = within(dialog).getByRole('combobox', { name: 'Event types' });
    await user.click(types);
    await user.keyboard('{Backspace}');
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await within(dialog).findByText('Choose at least one event type, or all')).toBeVisible();
    expect(within(dialog).getByText('Choose at least one tag, or all')).toBeVisible();
    expect(api.calls).toEqual([]);
  });

  it('lists recent deliveries with their outcome', async () => {
    const api = fakeApi({
      channels: [channel()],
      rules: [],
      deliveries: [
        delivery({
          id: 3,
          status: 'failed',
          attempts: 5,
          last_error: 'The webhook answered HTTP 503',
          sent_at: null,
        }),
        delivery({
          id: 2,
          kind: 'daily',
          summary: 'Repository Tracker daily digest: 4 events in 2 repositories',
        }),
        delivery({ id: 1, status: 'skipped', last_error: 'Nothing left that you can see', channel_id: null }),
      ],
    });
    await openTab(api.handlers);
    const list = await within(section('Recent deliveries')).findByRole('list', { name: 'Deliveries' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Failed');
    expect(rows[0]).toHaveTextContent('5 attempts');
    expect(rows[0]).toHaveTextContent('The webhook answered HTTP 503');
    expect(rows[1]).toHaveTextContent('Daily digest · Team hook');
    expect(rows[2]).toHaveTextContent('Skipped');
    expect(rows[2]).toHaveTextContent('removed channel');
  });
});
