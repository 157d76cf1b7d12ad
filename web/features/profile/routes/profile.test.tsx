import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '#shared/constants.ts';
import {
  buildUser,
  errorResponse,
  type FetchHandler,
  jsonResponse,
  meFromStorage,
  renderApp,
  signIn,
} from '../../../../test/web/render.tsx';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

async function openProfile(handlers: Record<string, FetchHandler> = {}, overrides = {}) {
  const member = signIn(buildUser({ created_at: daysAgo(45), ...overrides }));
  const rendered = renderApp({ route: '/profile', handlers });
  await screen.findByRole('heading', { level: 1, name: 'Profile' });
  const section = (name: string) =>
    screen.getByRole('heading', { level: 2, name }).closest('.mantine-Paper-root') as HTMLElement;
  return { ...rendered, member, section };
}

const firstName = () => screen.getByRole('textbox', { name: /^First Name/ }) as HTMLInputElement;
const lastName = () => screen.getByRole('textbox', { name: /^Last Name/ }) as HTMLInputElement;

describe('Profile: personal information', () => {
  it("shows the names, username and e-mail, with 'Not set' for an empty one", async () => {
    const { section } = await openProfile({}, { last_name: '' });
    const info = section('Personal Information');
    expect(within(info).getByText('Alice')).toBeVisible();
    expect(within(info).getByText('Not set')).toBeVisible();
    expect(within(info).getByText('alice')).toBeVisible();
    expect(within(info).getByText('alice@example.com')).toBeVisible();
  });

  it('edits first and last name only; Cancel restores the previous values', async () => {
    const { user, section } = await openProfile();
    await user.click(within(section('Personal Information')).getByRole('button', { name: 'Edit' }));

    expect(screen.getByRole('textbox', { name: /^Username/ }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('textbox', { name: /^Email/ }).hasAttribute('disabled')).toBe(true);
    await user.clear(firstName());
    await user.type(firstName(), 'Alicia');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    const info = section('Personal Information');
    expect(within(info).getByText('Alice')).toBeVisible();
    expect(within(info).queryByText('Alicia')).toBeNull();
    await user.click(within(info).getByRole('button', { name: 'Edit' }));
    expect(firstName().value).toBe('Alice');
  });

  it("requires both names ('First name and last name are required')", async () => {
    const { user, fetchMock } = await openProfile();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(lastName());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('First name and last name are required')).toBeVisible();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
  });

  it('saves with PATCH /auth/me, returns to view mode, updates the sidebar and clears the message after 3 s', async () => {
    let body: unknown;
    const { user, member, section } = await openProfile({
      'PATCH /auth/me': async (request) => {
        body = await request.json();
        return jsonResponse({ user: { ...member, first_name: 'Alicia', last_name: 'Smythe' } });
      },
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.clear(firstName());
    await user.type(firstName(), ' Alicia ');
    await user.clear(lastName());
    await user.type(lastName(), 'Smythe');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Profile updated successfully')).toBeVisible();
    expect(body).toEqual({ first_name: 'Alicia', last_name: 'Smythe' });
    expect(within(section('Personal Information')).getByText('Alicia')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByText('Alicia Smythe')).toBeVisible();
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.user) ?? '{}').first_name).toBe('Alicia');
    await waitFor(() => expect(screen.queryByText('Profile updated successfully')).toBeNull(), {
      timeout: 4_000,
    });
  });

  it("shows the server's message, or 'Failed to update profile', and stays in edit mode", async () => {
    const { user } = await openProfile({ 'PATCH /auth/me': () => new Response('oops', { status: 500 }) });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to update profile');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it("says 'Failed to load profile information' when the fresh copy can't be fetched", async () => {
    let calls = 0;
    await openProfile({
      'GET /auth/me': (request) => {
        calls += 1;
        // The first call restores the session at start; the profile's own fetch fails.
        return calls === 1 ? meFromStorage(request) : new Response('down', { status: 503 });
      },
    });
    expect(await screen.findByText('Failed to load profile information')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });
});

describe('Profile: statistics and details', () => {
  it("shows the server's count of the member's own repositories", async () => {
    const { section } = await openProfile({
      'GET /repositories/counts': () => jsonResponse({ total: 4, mine: 2, tags: 0 }),
    });
    const stats = section('Account Statistics');
    expect(await within(stats).findByText('2')).toBeVisible();
    expect(within(stats).getByText('1 month')).toBeVisible();
  });

  it("shows '—' when the repository count is not available", async () => {
    const { section } = await openProfile({
      'GET /repositories/counts': () => errorResponse(404, 'Not found'),
    });
    expect(await within(section('Account Statistics')).findByText('—')).toBeVisible();
  });

  it('shows the flags and the account details', async () => {
    const { section } = await openProfile({}, { is_admin: true, is_verified: true, last_login_at: null });
    const stats = section('Account Statistics');
    const flag = (label: string) => within(stats).getByText(label).parentElement as HTMLElement;
    expect(within(flag('Email Verified')).getByText('Yes')).toBeVisible();
    expect(within(flag('Admin')).getByText('Yes')).toBeVisible();

    const details = section('Account Details');
    expect(within(details).getByText('Member Since')).toBeVisible();
    expect(within(details).getByText('Last Updated')).toBeVisible();
    expect(within(details).getByText('Never')).toBeVisible();
    expect(within(details).getByText('Active')).toBeVisible();
  });
});

describe('Profile: sign-in methods', () => {
  it('lists the linked identities with issuer, e-mail and last sign-in, and whether a password is set', async () => {
    const { section } = await openProfile({
      'GET /auth/me/identities': () =>
        jsonResponse({
          identities: [
            {
              id: 7,
              issuer: 'https://sso.example.com/realms/team',
              email: 'alice@sso.example.com',
              created_at: '2026-10-01T08:00:00.000Z',
              last_sign_in_at: null,
            },
          ],
          has_password: false,
        }),
    });
    await screen.findByText('alice@sso.example.com');
    const methods = section('Sign-in Methods');
    expect(within(methods).getByText('sso.example.com')).toBeVisible();
    expect(within(methods).getByText('sso.example.com').getAttribute('title')).toBe(
      'https://sso.example.com/realms/team',
    );
    expect(within(methods).getByText(/Last sign-in: Never/)).toBeVisible();
    expect(within(methods).getByText('Not set')).toBeVisible();
    expect(within(methods).getByText('This account signs in with single sign-on only.')).toBeVisible();
  });

  it('says so when only a password is set', async () => {
    const { section } = await openProfile();
    expect(await screen.findByText('No single sign-on identity is linked to this account.')).toBeVisible();
    expect(within(section('Sign-in Methods')).getByText('Set')).toBeVisible();
  });
});
