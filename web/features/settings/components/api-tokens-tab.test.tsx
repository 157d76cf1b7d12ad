import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ApiToken } from '#shared/schemas/api-tokens.ts';
import { buildUser, jsonResponse, renderWithProviders, signIn } from '../../../../test/web/render.tsx';
import { ApiTokensTab } from './api-tokens-tab.tsx';
import { SecurityTab } from './security-tab.tsx';

const TOKEN = `rt_${'A'.repeat(43)}`;

function token(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 1,
    name: 'CI export',
    scope: 'read',
    prefix: 'rt_AbCdEfGh',
    created_at: '2026-11-01T09:00:00.000Z',
    expires_at: null,
    last_used_at: '2026-11-20T09:00:00.000Z',
    last_used_ip: '203.0.113.7',
    ...overrides,
  };
}

function tokensApi(initial: ApiToken[]) {
  let tokens = initial;
  const calls: { method: string; url: string; body?: unknown }[] = [];
  return {
    calls,
    handlers: {
      'GET /auth/me/tokens': () => jsonResponse({ tokens }),
      'POST /auth/me/tokens': async (request: Request) => {
        const body = await request.json();
        calls.push({ method: 'POST', url: '/auth/me/tokens', body });
        const created = token({ id: 9, name: body.name, scope: body.scope, prefix: TOKEN.slice(0, 11) });
        tokens = [created, ...tokens];
        return jsonResponse({ token: TOKEN, api_token: created }, { status: 201 });
      },
      'DELETE /auth/me/tokens/1': () => {
        calls.push({ method: 'DELETE', url: '/auth/me/tokens/1' });
        tokens = tokens.filter((row) => row.id !== 1);
        return jsonResponse({ revoked: 1 });
      },
      'DELETE /auth/me/tokens': () => {
        calls.push({ method: 'DELETE', url: '/auth/me/tokens' });
        const revoked = tokens.length;
        tokens = [];
        return jsonResponse({ revoked });
      },
    },
  };
}

describe('ApiTokensTab', () => {
  it('lists the tokens: name, scope, prefix, dates and last use with its address', async () => {
    signIn();
    const api = tokensApi([token(), token({ id: 2, name: 'Deploy', scope: 'write', last_used_at: null })]);
    renderWithProviders(<ApiTokensTab isAdmin={false} />, { handlers: api.handlers });
    const row = (await screen.findByText('CI export')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Read')).toBeVisible();
    expect(within(row).getByText('rt_AbCdEfGh…')).toBeVisible();
    expect(within(row).getByText('Never')).toBeVisible();
    expect(within(row).getByText(/from 203\.0\.113\.7$/)).toBeVisible();
    const other = screen.getByText('Deploy').closest('tr') as HTMLElement;
    expect(within(other).getByText('Never used')).toBeVisible();
  });

  it('creates a token with the shared schema’s checks and shows it once, to copy', async () => {
    signIn();
    const api = tokensApi([]);
    const { user } = renderWithProviders(<ApiTokensTab isAdmin={false} />, { handlers: api.handlers });
    expect(await screen.findByText('No API tokens yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('Name is required')).toBeVisible();
    expect(api.calls).toEqual([]);
    // Members are not offered the admin scope.
    await user.click(screen.getByRole('combobox', { name: 'Scope' }));
    await user.click(await screen.findByRole('option', { name: /^Write/ }));
    expect(screen.queryByRole('option', { name: /^Admin/ })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: 'Expires' }));
    await user.click(await screen.findByRole('option', { name: 'Never' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Nightly');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('textbox', { name: 'Your new API token' })).toHaveValue(TOKEN);
    expect(screen.getByText('Copy it now: it will not be shown again.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect(api.calls).toEqual([
      {
        method: 'POST',
        url: '/auth/me/tokens',
        body: { name: 'Nightly', scope: 'write', expires_in_days: null },
      },
    ]);
    expect(await screen.findByText('Nightly')).toBeVisible();
  });

  it('offers the admin scope to admins', async () => {
    signIn(buildUser({ is_admin: true }));
    const { user } = renderWithProviders(<ApiTokensTab isAdmin />, { handlers: tokensApi([]).handlers });
    await user.click(await screen.findByRole('combobox', { name: 'Scope' }));
    expect(await screen.findByRole('option', { name: /^Admin/ })).toBeInTheDocument();
  });

  it('revokes one, and all, only after a confirmation', async () => {
    signIn();
    const api = tokensApi([token(), token({ id: 2, name: 'Deploy' })]);
    const { user } = renderWithProviders(<ApiTokensTab isAdmin={false} />, { handlers: api.handlers });
    await user.click(await screen.findByRole('button', { name: 'Revoke CI export' }));
    const one = await screen.findByRole('dialog', { name: 'Revoke the API token "CI export"?' });
    expect(api.calls).toEqual([]);
    await user.click(within(one).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('API token "CI export" revoked: it no longer works.')).toBeVisible();
    await waitFor(() => expect(screen.queryByText('CI export')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Revoke all tokens' }));
    const all = await screen.findByRole('dialog', { name: 'Revoke all API tokens?' });
    await user.click(within(all).getByRole('button', { name: 'Revoke all' }));
    expect(await screen.findByText('1 API token revoked.')).toBeVisible();
    expect(await screen.findByText('No API tokens yet.')).toBeVisible();
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'DELETE /auth/me/tokens/1',
      'DELETE /auth/me/tokens',
    ]);
  });
});

describe('Sign out everywhere', () => {
  it('says API tokens keep working and links to them', async () => {
    const user = signIn();
    renderWithProviders(<SecurityTab user={user} />);
    expect(screen.getByText(/API tokens are not sessions: they keep working after this\./)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Revoke them under API tokens' })).toHaveAttribute(
      'href',
      '#/settings?tab=tokens',
    );
  });
});
