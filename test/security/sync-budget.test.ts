import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNCS_PER_MEMBER } from '#shared/schemas/repositories.ts';
import { RedisCounterStore } from '../../server/lib/rate-limiter.ts';
import { insertRepository } from '../../server/repository/repository.queries.ts';
import { listDoubleRepositories } from '../github-double/index.ts';
import { login, signedInUser } from '../helpers/auth-factory.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { createReposTestApp, repoPath } from '../helpers/repos-app.ts';
import { buildRepositoryRow } from '../helpers/repository-row.ts';

/**
 * Issue 22, item 3: the limit on manual updates from GitHub (30 per member per 15 minutes, so
 * one member can't spend the shared GitHub quota) did not apply to `POST /repositories/bulk
 * { action: "sync" }`: three bulk calls of 44 repositories ran 132 syncs, and bulk still
 * answered 200 after single updates got 429. Now both paths spend from one budget per member,
 * counted in repositories: a bulk update asking for more than is left is refused whole (429 with
 * `retry_after`, nothing made due), and one larger than the whole budget is invalid (400).
 */

const clock = createFakeClock(new Date('2026-11-25T10:00:00Z'));
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
/** Due long after the test: only an update makes them due. */
const LATER = new Date('2100-01-01T00:00:00Z');
const names = listDoubleRepositories()
  .slice(0, 50)
  .map((repository) => repository.fullName);

beforeAll(async () => {
  t = await createReposTestApp({ GITHUB_TOKEN: 'ghp_serverTokenForSyncBudget1' }, {}, { clock });
  for (const [index, fullName] of names.entries()) {
    const summary = listDoubleRepositories()[index];
    await insertRepository(t.app.db, buildRepositoryRow(fullName, summary?.id ?? 900_000 + index), LATER);
  }
});
afterAll(() => t?.close());

function bulkSync(who: Member, items: string[]) {
  return t.app.inject({
    method: 'POST',
    url: '/repositories/bulk',
    headers: who.headers,
    payload: { items, action: 'sync' },
  });
}
function update(who: Member, fullName: string) {
  return t.app.inject({
    method: 'PUT',
    url: repoPath(fullName),
    headers: { ...who.headers, 'content-type': 'application/json' },
    payload: '',
  });
}
/**
 * Which of `fullNames` an update made due now. Only an update does (the clock stands still, and
 * the engine reschedules what it refreshed to later), so this holds while the engine runs.
 */
async function dueNow(fullNames: string[]): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom('repository_sync_state')
    .innerJoin('repositories', 'repositories.id', 'repository_sync_state.repository_id')
    .select(['full_name', 'due_at'])
    .where('full_name', 'in', fullNames)
    .execute();
  return rows.filter((row) => new Date(row.due_at) <= clock.now()).map((row) => row.full_name);
}
async function resetDue() {
  await t.app.db.updateTable('repository_sync_state').set({ due_at: LATER.toISOString() }).execute();
}
function expect429(answer: Awaited<ReturnType<typeof bulkSync>>) {
  expect(answer.statusCode, answer.body).toBe(429);
  const body = answer.json();
  expect(body.code).toBe('rate_limited');
  expect(body.retry_after).toBeGreaterThan(0);
  expect(body.retry_after).toBeLessThanOrEqual(15 * 60);
  expect(answer.headers['retry-after']).toBe(String(body.retry_after));
  return body as { message: string; retry_after: number };
}

describe('manual updates from GitHub: one budget per member, counted in repositories', () => {
  it('single and bulk updates spend from the same 30; a bulk asking for more than is left is refused whole', async () => {
    expect(SYNCS_PER_MEMBER).toBe(30);
    const member = await signedInUser(t.app);
    await resetDue();
    for (const fullName of names.slice(0, 5))
      expect((await update(member, fullName)).statusCode).not.toBe(429);

    const twenty = await bulkSync(member, names.slice(5, 25));
    expect(twenty.statusCode, twenty.body).toBe(200);
    expect(twenty.json()).toMatchObject({ succeeded: 20, failed: 0 });

    // 5 left: a bulk of 10 is refused whole, before anything is made due.
    const refused = expect429(await bulkSync(member, names.slice(25, 35)));
    expect(refused.message).toBe(
      `Too many requests: you can update 5 more repositories from GitHub in the next ${Math.ceil(refused.retry_after / 60)} minutes. Select fewer, or try again later.`,
    );
    expect(await dueNow(names.slice(25, 35))).toEqual([]);

    // A refused bulk spends nothing: the 5 left are still there.
    const five = await bulkSync(member, names.slice(25, 30));
    expect(five.statusCode, five.body).toBe(200);
    expect(five.json().succeeded).toBe(5);

    // The finding: after the budget is spent, bulk answered 200 where single updates got 429.
    expect429(await update(member, names[0] ?? ''));
    const one = expect429(await bulkSync(member, [names[40] ?? '']));
    expect(one.message).toBe(
      `Too many requests. Please try again in ${Math.ceil(one.retry_after / 60)} minutes.`,
    );
    expect(await dueNow(names.slice(40, 41))).toEqual([]);

    // Another member has their own budget.
    const other = await signedInUser(t.app);
    expect((await bulkSync(other, names.slice(30, 40))).statusCode).toBe(200);
  });

  it('the report: three bulk updates of 44 repositories make at most 30 due, not 132', async () => {
    const member = await signedInUser(t.app);
    await resetDue();
    const statuses: number[] = [];
    let queued = 0;
    for (const batch of [names.slice(0, 30), names.slice(0, 44), names.slice(6, 50)]) {
      const answer = await bulkSync(member, batch);
      statuses.push(answer.statusCode);
      if (answer.statusCode === 200) queued += answer.json().succeeded;
    }
    // 44 can never fit in 30: invalid, on the selection. The first 30 went through.
    expect(statuses).toEqual([200, 400, 400]);
    expect(queued).toBe(30);
    expect(await dueNow(names.slice(30, 50))).toEqual([]);
    const tooMany = await bulkSync(member, names.slice(0, 44));
    expect(tooMany.json()).toMatchObject({
      code: 'validation_failed',
      fields: { items: `Update at most ${SYNCS_PER_MEMBER} repositories from GitHub at once` },
    });
    expect429(await bulkSync(member, names.slice(0, 30)));
  });

  it('counts repositories, not spellings: the same name twice, in any case, is one', async () => {
    const member = await signedInUser(t.app);
    const selection = [...names.slice(0, 29), (names[0] ?? '').toUpperCase()];
    const answer = await bulkSync(member, selection);
    expect(answer.statusCode, answer.body).toBe(200);
    // 29 spent: one left.
    expect((await update(member, names[1] ?? '')).statusCode).not.toBe(429);
    expect429(await update(member, names[1] ?? ''));
  });

  it('other bulk actions spend nothing, and the budget comes back after 15 minutes', async () => {
    const member = await signedInUser(t.app);
    expect((await bulkSync(member, names.slice(0, 30))).statusCode).toBe(200);
    const tagged = await t.app.inject({
      method: 'POST',
      url: '/repositories/bulk',
      headers: member.headers,
      payload: { items: names.slice(0, 30), action: 'add_tags', tags: 'budget' },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect429(await bulkSync(member, names.slice(0, 1)));
    clock.advance(15 * 60 + 1);
    // A fresh session: the access token lives 15 minutes on the same clock.
    const session = await login(t.app, { email_or_username: member.email, password: member.password });
    const again = { ...member, headers: { authorization: `Bearer ${session.access_token}` } };
    expect((await bulkSync(again, names.slice(0, 30))).statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('the Redis counter spends and gives back several points at once', () => {
  let redis: Redis;
  const key = `sync-budget-test:${process.pid}:${Date.now()}`;
  beforeAll(() => {
    redis = new Redis(redisUrl ?? '');
  });
  afterAll(async () => {
    await redis.del(`rt:limit:${key}`);
    redis.disconnect();
  });

  it('adds points, keeps the window, and a refund never goes below nothing or outlives it', async () => {
    const store = new RedisCounterStore(redis);
    expect((await store.hit(key, 60_000, 20)).count).toBe(20);
    const second = await store.hit(key, 60_000, 15);
    expect(second.count).toBe(35);
    expect(second.resetMs).toBeGreaterThan(50_000);
    await store.refund(key, 15);
    expect((await store.hit(key, 60_000)).count).toBe(21);
    await store.refund(key, 100);
    expect(Number(await redis.get(`rt:limit:${key}`))).toBe(0);
    expect(await redis.pttl(`rt:limit:${key}`)).toBeGreaterThan(0);
    // A refund after the window ended creates nothing.
    await redis.del(`rt:limit:${key}`);
    await store.refund(key, 1);
    expect(await redis.exists(`rt:limit:${key}`)).toBe(0);
  });
});
