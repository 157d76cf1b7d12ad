import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, signedInUser } from '../helpers/auth-factory.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue 22, item 7: "sign out everywhere" ended every session but left the Atom feed's token
 * working: someone who had the account (and made a feed address) kept reading what it can see
 * after its owner pressed the button meant for exactly that. It is revoked with the sessions
 * now, in the same change.
 */
let t: TestApp;
type Member = Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://tracker.example.org' });
});
afterAll(() => t?.close());

function call(member: Member | { headers: Record<string, string> }, method: 'GET' | 'POST', url: string) {
  return t.app.inject({ method, url, headers: member.headers });
}

async function feedToken(member: Member): Promise<string> {
  const created = await call(member, 'POST', '/auth/me/feed-token');
  expect(created.statusCode, created.body).toBe(200);
  return created.json().token;
}

const readFeed = (token: string) =>
  t.app.inject({ method: 'GET', url: `/feeds/activity.atom?token=${encodeURIComponent(token)}` });

describe('sign out everywhere', () => {
  it('revokes the feed token with every session', async () => {
    const member = await signedInUser(t.app);
    const token = await feedToken(member);
    expect((await readFeed(token)).statusCode).toBe(200);

    const out = await call(member, 'POST', '/auth/logout-all');
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toMatch(/^Signed out of every session. API tokens .* keep working/);

    // The feed answers as for any revoked token, and the status says there is none.
    const feed = await readFeed(token);
    expect(feed.statusCode).toBe(401);
    const again = await login(t.app, { email_or_username: member.email, password: member.password });
    const fresh = { headers: { authorization: `Bearer ${again.access_token}` } };
    expect((await call(fresh, 'GET', '/auth/me/feed-token')).json()).toMatchObject({ exists: false });
    // A new address can be made, and works.
    const created = await call(fresh, 'POST', '/auth/me/feed-token');
    expect((await readFeed(created.json().token)).statusCode).toBe(200);
  });

  it("leaves other members' feed tokens alone", async () => {
    const leaving = await signedInUser(t.app);
    const staying = await signedInUser(t.app);
    await feedToken(leaving);
    const kept = await feedToken(staying);
    expect((await call(leaving, 'POST', '/auth/logout-all')).statusCode).toBe(200);
    expect((await readFeed(kept)).statusCode).toBe(200);
  });
});
