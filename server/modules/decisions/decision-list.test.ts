import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkResponseSchema } from '#shared/schemas/bulk.ts';
import {
  catalogueStatsResponseSchema,
  repositoryPageSchema,
  STATUS_FILTER_MESSAGE,
  tagsResponseSchema,
} from '#shared/schemas/catalogue.ts';
import { decisionListSchema } from '#shared/schemas/decisions.ts';
import { repositoryResponseSchema } from '#shared/schemas/repositories.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { rebuildDerivedTables } from '../../repository/repository-labels.ts';

/**
 * Team decisions in the list with DECISIONS_BY=members (docs/product.md#team-decisions), on both
 * databases: `decision` on rows and the detail answer, the `status=` filter (`none` included) on
 * pages, tag counts, exports and saved views, `decision_statuses` in the statistics, and the bulk
 * `set_status` action (one record per repository, rationale rules, hidden repositories failed).
 */

const OWNER_TOKEN = 'ghp_decisionListOwnerReads1';
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;
const PUBLIC = ['facebook/react', 'vuejs/core', 'vitejs/vite'];

beforeAll(async () => {
  t = await createReposTestApp({ SYNC_SCHEDULE: 'off' });
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const id of [...PUBLIC, PRIVATE_REPOSITORY])
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const call = (who: Member, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });
const bulk = async (who: Member, payload: object) => {
  const answer = await call(who, 'POST', '/repositories/bulk', payload);
  expect(answer.statusCode, answer.body).toBe(200);
  return bulkResponseSchema.parse(answer.json());
};
const page = async (who: Member, query: string) => {
  const answer = await call(who, 'GET', `/repositories/?${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return repositoryPageSchema.parse(answer.json());
};
const names = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

describe('the bulk set_status action', () => {
  it('follows the decision rules for the whole request', async () => {
    const items = ['facebook/react', 'vuejs/core'];
    const noReason = await call(ada, 'POST', '/repositories/bulk', {
      items,
      action: 'set_status',
      status: 'adopt',
      quadrant: 'languages',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields.rationale).toMatch(/rationale is required/);
    const html = await call(ada, 'POST', '/repositories/bulk', {
      items,
      action: 'set_status',
      status: 'trial',
      quadrant: 'languages',
      rationale: 'Fast <img src=x onerror=alert(1)>',
    });
    expect(html.json().fields.rationale).toMatch(/without raw HTML/);
    const noStatus = await call(ada, 'POST', '/repositories/bulk', { items, action: 'set_status' });
    expect(noStatus.json().fields.status).toBeDefined();
    const unknown = await call(ada, 'POST', '/repositories/bulk', {
      items,
      action: 'set_status',
      status: 'trial',
      quadrant: 'nowhere',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields.quadrant).toMatch(/quadrant must be one of/);
    const records = await t.app.db.selectFrom('repository_decisions').select('id').execute();
    expect(records).toHaveLength(0);
  });

  it('writes one record per repository with the shared rationale; hidden ones fail on their own', async () => {
    const answer = await bulk(bob, {
      items: ['facebook/react', 'vuejs/core', PRIVATE_REPOSITORY],
      action: 'set_status',
      status: 'adopt',
      quadrant: 'languages',
      rationale: 'Our **standard** stack',
      links: ['https://example.com/adr/1'],
    });
    expect(answer).toMatchObject({ succeeded: 2, failed: 1 });
    expect(answer.results).toEqual([
      { id: 'facebook/react', ok: true, status: 'done' },
      { id: 'vuejs/core', ok: true, status: 'done' },
      { id: PRIVATE_REPOSITORY, ok: false, status: 'failed', error: 'Repository not found in database' },
    ]);
    const { decisions } = decisionListSchema.parse(
      (await call(ada, 'GET', repoPath('vuejs/core', '/decisions'))).json(),
    );
    expect(decisions).toEqual([
      expect.objectContaining({
        to_status: 'adopt',
        to_quadrant: 'languages',
        rationale: 'Our **standard** stack',
        links: ['https://example.com/adr/1'],
        decided_by: { id: bob.id, username: bob.username },
      }),
    ]);
    // vuejs/core moves on to hold; the private repository gets its own status from its owner.
    await bulk(ada, {
      items: ['vuejs/core'],
      action: 'set_status',
      status: 'hold',
      quadrant: 'libraries',
      rationale: 'Replaced',
    });
    await bulk(ada, {
      items: [PRIVATE_REPOSITORY],
      action: 'set_status',
      status: 'assess',
      quadrant: 'tools',
    });
  });
});

describe('decision on rows', () => {
  it('shows on list rows and the detail answer; null without a status', async () => {
    const rows = (await page(ada, 'limit=50')).repositories;
    const byName = Object.fromEntries(rows.map((row) => [row.id, row.decision]));
    expect(byName).toEqual({
      'facebook/react': { status: 'adopt', quadrant: 'languages' },
      'vuejs/core': { status: 'hold', quadrant: 'libraries' },
      'vitejs/vite': null,
      [PRIVATE_REPOSITORY]: { status: 'assess', quadrant: 'tools' },
    });
    const detail = repositoryResponseSchema.parse(
      (await call(bob, 'GET', repoPath('vuejs/core'))).json(),
    ).repository;
    expect(detail.decision).toEqual({ status: 'hold', quadrant: 'libraries' });
    const whole = (await call(ada, 'GET', '/repositories/')).json().repositories as { id: string }[];
    expect(whole.find((row) => row.id === 'vitejs/vite')).toMatchObject({ decision: null });
  });

  it('is rebuilt from the current decisions after a restore (rows from an older backup)', async () => {
    await t.app.db
      .updateTable('repositories')
      .set({ decision_status: null, decision_quadrant: null })
      .execute();
    await rebuildDerivedTables(t.app.db, new Date());
    const rows = await t.app.db
      .selectFrom('repositories')
      .select(['full_name', 'decision_status', 'decision_quadrant'])
      .where('decision_status', 'is not', null)
      .orderBy('full_name')
      .execute();
    expect(rows.map((row) => [row.full_name, row.decision_status, row.decision_quadrant])).toEqual(
      [
        ['facebook/react', 'adopt', 'languages'],
        [PRIVATE_REPOSITORY, 'assess', 'tools'],
        ['vuejs/core', 'hold', 'libraries'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });
});

describe('the status filter', () => {
  it('keeps the statuses named, none for no status, and counts only what the caller may see', async () => {
    expect(names((await page(ada, 'status=adopt')).repositories)).toEqual(['facebook/react']);
    expect(names((await page(ada, 'status=adopt,hold')).repositories)).toEqual([
      'facebook/react',
      'vuejs/core',
    ]);
    const none = await page(ada, 'status=none');
    expect(names(none.repositories)).toEqual(['vitejs/vite']);
    expect(none.total).toBe(1);
    expect((await page(ada, 'status=assess,none')).total).toBe(2);
    expect((await page(bob, 'status=assess,none')).total).toBe(1);
    expect((await page(ada, 'status=trial,retired')).total).toBe(0);
  });

  it('refuses other values naming the allowed ones', async () => {
    for (const value of ['adopted', 'adopt,maybe', ',', 'NONE']) {
      const answer = await call(ada, 'GET', `/repositories/?status=${encodeURIComponent(value)}`);
      expect(answer.statusCode, value).toBe(400);
      expect(answer.json().fields.status).toBe(STATUS_FILTER_MESSAGE);
    }
    expect(STATUS_FILTER_MESSAGE).toBe(
      'status takes one or more of assess, trial, adopt, hold, retired, none, comma-separated',
    );
    expect((await call(ada, 'GET', '/repositories/stats?status=x')).statusCode).toBe(400);
    expect((await call(ada, 'GET', '/repositories/export?status=x')).statusCode).toBe(400);
  });

  it('applies to tag counts, saved views and the export', async () => {
    await bulk(ada, { items: ['facebook/react', 'vitejs/vite'], action: 'add_tags', tags: 'web' });
    const tags = tagsResponseSchema.parse((await call(ada, 'GET', '/tags?status=none')).json());
    expect(tags.tags).toEqual([{ name: 'web', count: 1 }]);

    const saved = await call(ada, 'POST', '/views', { name: 'On hold', query: 'status=hold,none' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().view.query).toBe('status=hold%2Cnone');
    const refused = await call(ada, 'POST', '/views', { name: 'Bad', query: 'status=later' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.query).toBe(STATUS_FILTER_MESSAGE);

    const csv = await call(ada, 'GET', '/repositories/export?status=adopt,hold,none&sort=name');
    expect(csv.statusCode).toBe(200);
    const records = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(records.map((record) => [record.id, record.status, record.quadrant])).toEqual([
      // By name: core, react, vite.
      ['vuejs/core', 'hold', 'libraries'],
      ['facebook/react', 'adopt', 'languages'],
      ['vitejs/vite', '', ''],
    ]);
    const header = csv.body.slice(0, csv.body.indexOf('\r\n')).split(',');
    expect(header.slice(header.indexOf('advisories_unknown'), header.indexOf('last_commit') + 1)).toEqual([
      'advisories_unknown',
      'status',
      'quadrant',
      'last_commit',
    ]);
    const selection = await call(ada, 'POST', '/repositories/export', { items: [PRIVATE_REPOSITORY] });
    const [record] = parse(selection.body, { columns: true }) as Record<string, string>[];
    expect(record).toMatchObject({ status: 'assess', quadrant: 'tools' });
  });
});

describe('statistics', () => {
  it('count repositories per status, every status in order then none, under the filters', async () => {
    const stats = catalogueStatsResponseSchema.parse((await call(ada, 'GET', '/repositories/stats')).json());
    expect(stats.decision_statuses).toEqual([
      { status: 'assess', count: 1 },
      { status: 'trial', count: 0 },
      { status: 'adopt', count: 1 },
      { status: 'hold', count: 1 },
      { status: 'retired', count: 0 },
      { status: 'none', count: 1 },
    ]);
    const bobs = catalogueStatsResponseSchema.parse(
      (await call(bob, 'GET', '/repositories/stats?status=adopt,assess')).json(),
    );
    expect(bobs.cards.total_repositories).toBe(1);
    expect(bobs.decision_statuses.map((entry) => entry.count)).toEqual([0, 0, 1, 0, 0, 0]);
  });
});
