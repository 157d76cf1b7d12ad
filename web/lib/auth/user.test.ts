import { describe, expect, it } from 'vitest';
import { userSchema } from '#shared/schemas/auth.ts';
import { buildUser } from '../../../test/web/render.tsx';
import { displayName, isSameUser, isUser } from './user.ts';

describe('isUser', () => {
  const valid = buildUser({ last_login_at: '2026-02-01T00:00:00.000Z', github_token_last_four: 'abcd' });

  // The guard stands in for `userSchema` on the first-load path: they must agree.
  const cases: [string, unknown][] = [
    ['a complete user', valid],
    ['missing a field', { ...valid, has_slack_webhook: undefined }],
    ['a string id', { ...valid, id: '1' }],
    ['a fractional id', { ...valid, id: 1.5 }],
    ['a null e-mail', { ...valid, email: null }],
    ['a numeric last login', { ...valid, last_login_at: 5 }],
    ['a string quota', { ...valid, github_default_quota_remaining: '5' }],
    ['null', null],
    ['an array', [valid]],
  ];

  it.each(cases)('agrees with userSchema on %s', (_name, value) => {
    expect(isUser(value)).toBe(userSchema.safeParse(value).success);
  });
});

describe('displayName', () => {
  it('is the full name, else the username', () => {
    expect(displayName(buildUser())).toBe('Alice Smith');
    expect(displayName(buildUser({ first_name: ' ', last_name: '' }))).toBe('alice');
  });
});

describe('isSameUser', () => {
  it('compares field by field, whatever the key order', () => {
    const user = buildUser();
    const reordered = Object.fromEntries(Object.entries(user).reverse()) as typeof user;
    expect(isSameUser(user, reordered)).toBe(true);
    expect(isSameUser(user, { ...user, first_name: 'Alicia' })).toBe(false);
  });
});
