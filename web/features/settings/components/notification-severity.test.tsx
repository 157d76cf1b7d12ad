import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Channel, Rule } from '#shared/schemas/notifications.ts';
import { type FetchHandler, jsonResponse, renderApp, signIn } from '../../../../test/web/render.tsx';

const NOW = '2026-11-25T10:00:00.000Z';
const BASE = '/auth/me/notifications';

const CHANNEL: Channel = {
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
};

function rule(overrides: Partial<Rule> = {}): Rule {
  return {
    id: 1,
    channel_id: 1,
    event_types: ['advisory_published'],
    tags: null,
    min_severity: 'high',
    cadence: 'instant',
    enabled: true,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

/** The rules API over `rules`, recording what was sent. */
function rulesApi(rules: Rule[]) {
  const sent: { method: string; body: Record<string, unknown> }[] = [];
  const handlers: Record<string, FetchHandler> = {
    [`GET ${BASE}/channels`]: () => jsonResponse({ channels: [CHANNEL] }),
    [`GET ${BASE}/rules`]: () => jsonResponse({ rules }),
    [`GET ${BASE}/deliveries`]: () => jsonResponse({ deliveries: [] }),
    'GET /tags': () => jsonResponse({ tags: [], suggestions: [] }),
    [`POST ${BASE}/rules`]: async (request) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'POST', body });
      const created = rule({
        id: rules.length + 1,
        event_types: body.event_types as Rule['event_types'],
        min_severity: (body.min_severity as Rule['min_severity'] | undefined) ?? 'high',
        cadence: body.cadence as Rule['cadence'],
      });
      rules.push(created);
      return jsonResponse(created, { status: 201 });
    },
    [`PATCH ${BASE}/rules/1`]: async (request) => {
      const body = (await request.json()) as Record<string, unknown>;
      sent.push({ method: 'PATCH', body });
      rules[0] = { ...(rules[0] as Rule), ...(body as Partial<Rule>) };
      return jsonResponse(rules[0]);
    },
  };
  return { handlers, sent };
}

async function openNotifications(handlers: Record<string, FetchHandler>) {
  signIn();
  const rendered = renderApp({ route: '/settings?tab=notifications', handlers });
  await screen.findByRole('heading', { level: 2, name: 'Channels' }, { timeout: 5000 });
  return rendered;
}

describe('notification rules: minimum severity of security advisories', () => {
  it('asks for it only when the rule sends security advisories, and sends it as min_severity', async () => {
    const api = rulesApi([]);
    const { user } = await openNotifications(api.handlers);
    const add = screen.getByRole('button', { name: 'Add Rule' });
    await expect.poll(() => add.hasAttribute('disabled')).toBe(false);
    await user.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add rule' });
    // Releases only: no severity to choose.
    expect(within(dialog).queryByRole('combobox', { name: 'Minimum severity' })).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: 'Event types' }));
    await user.click(await screen.findByRole('option', { name: 'Security advisory' }));
    const severity = within(dialog).getByRole('combobox', { name: 'Minimum severity' });
    expect(severity).toHaveValue('High or worse');
    await user.click(severity);
    await user.click(await screen.findByRole('option', { name: 'Critical only' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Rule' }));
    expect(await screen.findByText('Rule added')).toBeVisible();
    expect(api.sent.at(-1)?.body).toMatchObject({
      event_types: ['release_published', 'advisory_published'],
      min_severity: 'critical',
    });
    const rules = screen.getByRole('list', { name: 'Rules' });
    expect(within(rules).getByText(/critical security advisories only/)).toBeVisible();
  });

  it('shows it for every event type, and keeps a rule’s own when it is edited', async () => {
    const api = rulesApi([rule({ event_types: null, min_severity: 'medium' })]);
    const { user } = await openNotifications(api.handlers);
    const rules = await screen.findByRole('list', { name: 'Rules' });
    expect(within(rules).getByText(/security advisories medium or worse/)).toBeVisible();
    await user.click(within(rules).getByRole('button', { name: /^Edit rule/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit rule' });
    const severity = within(dialog).getByRole('combobox', { name: 'Minimum severity' });
    expect(severity).toHaveValue('Medium or worse');
    await user.click(severity);
    await user.click(await screen.findByRole('option', { name: 'Any, unrated included' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Rule' }));
    expect(await screen.findByText('Rule saved')).toBeVisible();
    expect(api.sent.at(-1)).toMatchObject({
      method: 'PATCH',
      body: { event_types: null, min_severity: 'unknown' },
    });
  });
});
