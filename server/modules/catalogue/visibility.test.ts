import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYNCS_PER_MEMBER } from '#shared/schemas/repositories.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath, syncEverythingNow } from '../../../test/helpers/repos-app.ts';

/**
 * Who sees a private repository (docs/product.md#private-repositories): a hidden one answers an
 * add exactly like a name GitHub doesn't know, and visibility is re-checked when a member
 * removes their token and at every sync. Manual syncs are limited per member.
 */
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let owner: Member;
const OWNER_TOKEN = 'ghp_ownerReadsPrivate0001';

beforeAll(async () => {
  // The GraphQL schema is built up front, so the first batch isn't slower than the second.
  t = await createReposTestApp({}, { preloadGraphqlSchema: true });
  owner = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  await setToken(owner, OWNER_TOKEN);
  expect((await add(owner, PRIVATE_REPOSITORY)).statusCode).toBe(201);
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  t.github.resetCounts();
});

const call = (who: Member, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });
const add = (who: Member, id: string) => call(who, 'POST', '/repositories/', { id });
const setToken = (who: Member, token: string) => call(who, 'PUT', '/auth/me/github-token', { token });
const sync = (who: Member, id: string) =>
  t.app.inject({
    method: 'PUT',
    url: repoPath(id),
    headers: { ...who.headers, 'content-type': 'application/json' },
    payload: '',
  });
const sees = async (who: Member, id: string) =>
  (await call(who, 'GET', `/repositories/check/${encodeURIComponent(id)}`)).json().exists as boolean;

describe('adding a private repository the member cannot see', () => {
  it('answers like a name GitHub does not know: same status, the name as typed, the same GitHub call', async () => {
    const outsider = await signedInUser(t.app);
    const answer = async (id: string) => {
      t.github.resetCounts();
      const response = await add(outsider, id);
      return { status: response.statusCode, body: response.json(), github: t.github.counts.byKey() };
    };
    const hidden = await answer('OcTo-DoUbLe/PrIvAtE-rEpOsItOrY');
    const missing = await answer('OcTo-DoUbLe/No-SuCh-RePoSiToRy');
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(
      'Repository OcTo-DoUbLe/PrIvAtE-rEpOsItOrY was not found on GitHub (it may be private: add a personal GitHub token that can read it).',
    );
    expect(hidden.body.message.replace('PrIvAtE-rEpOsItOrY', 'No-SuCh-RePoSiToRy')).toBe(
      missing.body.message,
    );
    expect(missing.status).toBe(404);
    expect(hidden.github).toEqual(missing.github);
    expect(hidden.github).toEqual({ 'GET /repos/{owner}/{repo}': 1 });
    expect(await sees(outsider, PRIVATE_REPOSITORY)).toBe(false);
  });

  it('the batch call (JSON and NDJSON) answers both alike, over GraphQL with a token', async () => {
    const outsider = await signedInUser(t.app);
    await setToken(outsider, 'ghp_outsiderCannotRead01');
    for (const accept of ['application/json', 'application/x-ndjson']) {
      const items = async (id: string) => {
        t.github.resetCounts();
        const response = await t.app.inject({
          method: 'POST',
          url: '/repositories/batch',
          headers: { ...outsider.headers, accept },
          payload: { items: [{ id }] },
        });
        const lines =
          accept === 'application/json'
            ? [response.json()]
            : response.body
                .trim()
                .split('\n')
                .map((line) => JSON.parse(line));
        return { lines, github: t.github.counts.byKey() };
      };
      const hidden = await items('Octo-Double/Private-Repository');
      const missing = await items('Octo-Double/No-Such-Repository');
      expect(JSON.stringify(hidden.lines).replaceAll('Private-Repository', 'X')).toBe(
        JSON.stringify(missing.lines).replaceAll('No-Such-Repository', 'X'),
      );
      expect(JSON.stringify(hidden.lines)).toContain(
        'Repository Octo-Double/Private-Repository was not found',
      );
      expect(hidden.github).toEqual(missing.github);
      expect(hidden.github['POST /graphql']).toBe(1);
    }
  });

  it('a member whose own token reads it gains visibility and gets the usual 409', async () => {
    const colleague = await signedInUser(t.app);
    const token = 'ghp_colleagueReadsPrivate1';
    t.github.grantPrivateAccess(token);
    await setToken(colleague, token);
    const response = await add(colleague, 'octo-double/PRIVATE-repository');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(`${PRIVATE_REPOSITORY} is already in the catalogue.`);
    expect(await sees(colleague, PRIVATE_REPOSITORY)).toBe(true);
  });
});

describe('visibility is re-checked', () => {
  async function memberWithAccess(token: string): Promise<Member> {
    const member = await signedInUser(t.app);
    t.github.grantPrivateAccess(token);
    await setToken(member, token);
    expect((await add(member, PRIVATE_REPOSITORY)).statusCode).toBe(409);
    expect(await sees(member, PRIVATE_REPOSITORY)).toBe(true);
    return member;
  }

  it('when a member removes their GitHub token', async () => {
    const member = await memberWithAccess('ghp_removesTokenLater001');
    expect((await call(member, 'DELETE', '/auth/me/github-token')).statusCode).toBe(200);
    expect(await sees(member, PRIVATE_REPOSITORY)).toBe(false);
    expect((await call(member, 'GET', repoPath(PRIVATE_REPOSITORY))).statusCode).toBe(404);
    // The owner keeps it.
    expect(await sees(owner, PRIVATE_REPOSITORY)).toBe(true);
  });

  it('when a member updates it and their token no longer reads it; the repository is not marked gone', async () => {
    const member = await memberWithAccess('ghp_losesAccessLater0001');
    // Their token now belongs to an account without access.
    await setToken(member, 'ghp_noAccessAnyMore00001');
    const response = await sync(member, PRIVATE_REPOSITORY);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(
      `${PRIVATE_REPOSITORY} can no longer be read with your GitHub token, so it is hidden from you now.`,
    );
    expect(await sees(member, PRIVATE_REPOSITORY)).toBe(false);
    const forOwner = (await call(owner, 'GET', repoPath(PRIVATE_REPOSITORY))).json().repository;
    expect(forOwner.gone).toBe(false);
  });

  it('at the scheduled sync: members without a token, or whose token no longer reads it, lose it', async () => {
    // An app of its own, so the access holders are exactly these three.
    const own = await createReposTestApp();
    try {
      const on = (who: Member, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
        own.app.inject({ method, url, headers: who.headers, payload });
      const visible = async (who: Member) =>
        (await on(who, 'GET', `/repositories/check/${encodeURIComponent(PRIVATE_REPOSITORY)}`)).json().exists;
      const adder = await signedInUser(own.app);
      const tokenless = await signedInUser(own.app);
      const lost = await signedInUser(own.app);
      for (const [who, token] of [
        [adder, 'ghp_adderReadsPrivate0001'],
        [tokenless, 'ghp_tokenlessLater000001'],
        [lost, 'ghp_lostAccessScheduled1'],
      ] as const) {
        own.github.grantPrivateAccess(token);
        await on(who, 'PUT', '/auth/me/github-token', { token });
        expect([201, 409]).toContain(
          (await on(who, 'POST', '/repositories/', { id: PRIVATE_REPOSITORY })).statusCode,
        );
        expect(await visible(who)).toBe(true);
      }
      // Tokens that vanished without DELETE (e.g. sealed under another SECRET_KEY), and one that
      // now belongs to an account without access.
      await own.app.db
        .updateTable('users')
        .set({ github_token_enc: null })
        .where('id', 'in', [adder.id, tokenless.id])
        .execute();
      await on(lost, 'PUT', '/auth/me/github-token', { token: 'ghp_noAccessScheduled0001' });

      const outcome = await syncEverythingNow(own.app);
      expect(outcome).toMatchObject({ synced: 0, gone: 1, failed: 0 });
      for (const who of [adder, tokenless, lost]) expect(await visible(who)).toBe(false);

      // The adder comes back with a token that reads it: visible again, and no longer gone.
      await on(adder, 'PUT', '/auth/me/github-token', { token: 'ghp_adderReadsPrivate0001' });
      expect((await on(adder, 'POST', '/repositories/', { id: PRIVATE_REPOSITORY })).statusCode).toBe(409);
      expect(await visible(adder)).toBe(true);
      const refreshed = await own.app.inject({
        method: 'PUT',
        url: repoPath(PRIVATE_REPOSITORY),
        headers: { ...adder.headers, 'content-type': 'application/json' },
        payload: '',
      });
      expect(refreshed.json().repository.gone).toBe(false);
    } finally {
      await own.close();
    }
  });
});

describe('manual updates from GitHub per member', () => {
  it(`allow ${SYNCS_PER_MEMBER} in 15 minutes, then 429 with retry_after; other members are not affected`, async () => {
    const busy = await signedInUser(t.app);
    const other = await signedInUser(t.app);
    // Their own tokens: the anonymous GitHub quota (60 an hour) would run out first.
    await setToken(busy, 'ghp_busyMemberToken000001');
    await setToken(other, 'ghp_otherMemberToken00001');
    expect((await add(busy, 'sindresorhus/awesome')).statusCode).toBe(201);
    for (let attempt = 0; attempt < SYNCS_PER_MEMBER; attempt++)
      expect((await sync(busy, 'sindresorhus/awesome')).statusCode).toBe(200);
    t.github.resetCounts();
    const refused = await sync(busy, 'sindresorhus/awesome');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused.json().retry_after).toBeGreaterThan(0);
    expect(refused.json().retry_after).toBeLessThanOrEqual(900);
    expect(refused.headers['retry-after']).toBe(String(refused.json().retry_after));
    // Refused before GitHub is asked.
    expect(t.github.counts.total()).toBe(0);
    expect((await sync(other, 'sindresorhus/awesome')).statusCode).toBe(200);
  });
});
