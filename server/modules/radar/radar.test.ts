import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BYOR_CSV_COLUMNS,
  editionCompareSchema,
  radarEditionResponseSchema,
  radarEditionsSchema,
  radarSchema,
} from '#shared/schemas/radar.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { repoPath } from '../../../test/helpers/repos-app.ts';
import { buildRepositoryRow } from '../../../test/helpers/repository-row.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { grantAccess, insertRepository } from '../../repository/repository.queries.ts';

/**
 * The radar (docs/product.md#the-radar), on both databases: numbering, moves against the
 * previous edition, the tag filter, editions frozen (a repository deleted afterwards still shows),
 * their comparison, build-your-own-radar's CSV, a private repository hidden from a member who
 * may not see it on every call, admins-only publishing, and the adopted-but-at-risk flags and
 * their one `adopted_at_risk` event per repository and cause.
 */

let t: TestApp;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;
let admin: Member;
const ids = new Map<string, number>();
let githubId = 1000;

const call = (who: Member, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });

async function add(fullName: string, overrides: { tags?: string; private?: 0 | 1 } = {}) {
  githubId += 1;
  const row = await insertRepository(
    t.app.db,
    buildRepositoryRow(fullName, githubId, overrides),
    new Date('2099-01-01T00:00:00Z'),
  );
  ids.set(fullName, row.id);
  return row;
}

async function decide(
  fullName: string,
  status: string | null,
  quadrant: string | null,
  rationale = 'Because.',
) {
  const answer = await call(admin, 'PUT', repoPath(fullName, '/decision'), { status, quadrant, rationale });
  expect(answer.statusCode, answer.body).toBe(200);
}

async function radar(who: Member, query = '') {
  const answer = await call(who, 'GET', `/radar${query}`);
  expect(answer.statusCode, answer.body).toBe(200);
  return radarSchema.parse(answer.json());
}

async function publish(name: string) {
  const answer = await call(admin, 'POST', '/radar/editions', { name });
  expect(answer.statusCode, answer.body).toBe(201);
  return radarEditionResponseSchema.parse(answer.json()).edition;
}

const setGrade = (fullName: string, grade: 'healthy' | 'at_risk' | 'archived' | null) =>
  t.app.db
    .updateTable('repositories')
    .set({ health_grade: grade })
    .where('id', '=', ids.get(fullName) ?? 0)
    .execute();

const atRiskEvents = async () =>
  (
    await t.app.db
      .selectFrom('repository_events')
      .select(['repository_id', 'data'])
      .where('type', '=', 'adopted_at_risk')
      .orderBy('id')
      .execute()
  ).map((row) => ({ repository_id: row.repository_id, ...JSON.parse(row.data) }));

beforeAll(async () => {
  t = await createTestApp();
  [ada, bob, admin] = await Promise.all([
    signedInUser(t.app),
    signedInUser(t.app),
    signedInUser(t.app, { is_admin: true }),
  ]);
  await add('lang/adopted', { tags: 'Frontend' });
  await add('lang/trialled');
  await add('lib/zeta', { tags: 'frontend,backend' });
  await add('lib/alpha');
  await add('tool/held');
  await add('plat/retired', { tags: 'frontend' });
  await add('priv/secret', { private: 1, tags: 'frontend' });
  await add('lib/undecided');
  await grantAccess(t.app.db, ids.get('priv/secret') ?? 0, ada.id, new Date().toISOString());
  await decide('lang/adopted', 'adopt', 'languages', 'Our default: `=1+1` and "quotes", commas.');
  await decide('lang/trialled', 'trial', 'languages');
  await decide('lib/zeta', 'adopt', 'libraries');
  await decide('lib/alpha', 'adopt', 'libraries');
  await decide('tool/held', 'hold', 'tools');
  await decide('plat/retired', 'retired', 'platforms');
  await decide('priv/secret', 'trial', 'libraries');
  // A decision cleared again is off the radar.
  await decide('lib/undecided', 'assess', 'tools');
  await decide('lib/undecided', null, null);
});
afterAll(async () => {
  await t?.close();
});

const names = (blips: { full_name: string }[]) => blips.map((blip) => blip.full_name);

describe('the current radar', () => {
  it('numbers blips quadrant by quadrant, ring by ring, then by name; Retired apart', async () => {
    const answer = await radar(admin);
    expect(answer.quadrants.map((quadrant) => quadrant.key)).toEqual([
      'languages',
      'libraries',
      'tools',
      'platforms',
    ]);
    expect(answer.rings).toEqual(['adopt', 'trial', 'assess', 'hold']);
    expect(answer.blips.map((blip) => [blip.number, blip.full_name, blip.status])).toEqual([
      [1, 'lang/adopted', 'adopt'],
      [2, 'lang/trialled', 'trial'],
      [3, 'lib/alpha', 'adopt'],
      [4, 'lib/zeta', 'adopt'],
      [5, 'priv/secret', 'trial'],
      [6, 'tool/held', 'hold'],
    ]);
    expect(answer.blips[0]).toMatchObject({
      repository_id: 'lang/adopted',
      quadrant: 'languages',
      moved: null,
      rationale: 'Our default: `=1+1` and "quotes", commas.',
      at_risk: false,
      at_risk_causes: [],
    });
    expect(answer.retired).toEqual([
      {
        repository_id: 'plat/retired',
        full_name: 'plat/retired',
        quadrant: 'platforms',
        rationale: 'Because.',
      },
    ]);
    expect(answer).toMatchObject({ edition: null, previous_edition: null });
  });

  it('shows a private repository only to who may see it, numbering what is shown', async () => {
    expect(names((await radar(ada)).blips)).toContain('priv/secret');
    const bobs = await radar(bob);
    expect(names(bobs.blips)).not.toContain('priv/secret');
    expect(bobs.blips.map((blip) => blip.number)).toEqual([1, 2, 3, 4, 5]);
  });

  it('filters by tag, any case', async () => {
    const tagged = await radar(ada, '?tag=FRONTEND');
    expect(names(tagged.blips)).toEqual(['lang/adopted', 'lib/zeta', 'priv/secret']);
    expect(tagged.retired.map((entry) => entry.full_name)).toEqual(['plat/retired']);
    expect(names((await radar(bob, '?tag=frontend')).blips)).toEqual(['lang/adopted', 'lib/zeta']);
  });
});

describe('editions', () => {
  let q3: number;
  let q4: number;

  it('are published by admins only, under a name not taken', async () => {
    expect((await call(ada, 'POST', '/radar/editions', { name: '2026 Q3' })).statusCode).toBe(403);
    q3 = (await publish('2026 Q3')).id;
    const again = await call(admin, 'POST', '/radar/editions', { name: '2026 q3' });
    expect(again.statusCode).toBe(409);
    const blank = await call(admin, 'POST', '/radar/editions', { name: '  ' });
    expect(blank.statusCode).toBe(400);
  });

  it('mark blips new, in or out against the latest edition', async () => {
    await decide('lang/trialled', 'adopt', 'languages');
    await decide('tool/held', 'assess', 'tools');
    await decide('lib/zeta', 'trial', 'libraries');
    await decide('lib/alpha', 'adopt', 'tools');
    await add('new/comer');
    await decide('new/comer', 'assess', 'platforms');
    await decide('priv/secret', 'adopt', 'libraries');
    const answer = await radar(admin);
    expect(answer.previous_edition).toMatchObject({ id: q3, name: '2026 Q3', blip_count: 6 });
    const moved = Object.fromEntries(answer.blips.map((blip) => [blip.full_name, blip.moved]));
    expect(moved).toEqual({
      'lang/adopted': null,
      'lang/trialled': 'in',
      'lib/zeta': 'out',
      'priv/secret': 'in',
      'lib/alpha': null,
      'tool/held': 'in',
      'new/comer': 'new',
    });
    // Bob's count leaves the private repository out.
    expect((await radar(bob)).previous_edition?.blip_count).toBe(5);
  });

  it('keep a repository deleted afterwards, and show the edition asked for', async () => {
    expect((await call(admin, 'DELETE', repoPath('lib/zeta'))).statusCode).toBe(200);
    q4 = (await publish('2026 Q4 / final')).id;
    const frozen = await radar(ada, `?edition=${q3}`);
    expect(frozen.edition).toMatchObject({ id: q3, name: '2026 Q3' });
    expect(frozen.previous_edition).toBeNull();
    expect(frozen.reviews_due).toEqual([]);
    expect(frozen.blips.find((blip) => blip.full_name === 'lib/zeta')).toMatchObject({
      repository_id: null,
      status: 'adopt',
      quadrant: 'libraries',
    });
    expect(names(frozen.blips)).toContain('priv/secret');
    expect(names((await radar(bob, `?edition=${q3}`)).blips)).not.toContain('priv/secret');
    const latest = await radar(admin, `?edition=${q4}`);
    expect(latest.previous_edition?.id).toBe(q3);
    expect(names(latest.blips)).not.toContain('lib/zeta');
    expect(latest.blips.find((blip) => blip.full_name === 'new/comer')?.moved).toBe('new');
    expect((await call(admin, 'GET', '/radar?edition=999999')).statusCode).toBe(404);
    const list = radarEditionsSchema.parse((await call(bob, 'GET', '/radar/editions')).json());
    expect(list.editions.map((edition) => [edition.name, edition.blip_count])).toEqual([
      ['2026 Q4 / final', 5],
      ['2026 Q3', 5],
    ]);
  });

  it('compare: status or quadrant moves, arrivals and departures, visible ones only', async () => {
    const answer = await call(ada, 'GET', `/radar/editions/${q3}/compare/${q4}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const { from, to, moves } = editionCompareSchema.parse(answer.json());
    expect([from.id, to.id]).toEqual([q3, q4]);
    expect(
      moves.map((move) => [
        move.full_name,
        move.from?.status ?? null,
        move.to?.status ?? null,
        move.direction,
      ]),
    ).toEqual([
      ['lang/trialled', 'trial', 'adopt', 'in'],
      ['lib/alpha', 'adopt', 'adopt', null],
      ['lib/zeta', 'adopt', null, null],
      ['new/comer', null, 'assess', null],
      ['priv/secret', 'trial', 'adopt', 'in'],
      ['tool/held', 'hold', 'assess', 'in'],
    ]);
    expect(moves.find((move) => move.full_name === 'lib/alpha')).toMatchObject({
      from: { quadrant: 'libraries' },
      to: { quadrant: 'tools' },
    });
    const bobs = editionCompareSchema.parse(
      (await call(bob, 'GET', `/radar/editions/${q3}/compare/${q4}`)).json(),
    );
    expect(names(bobs.moves)).not.toContain('priv/secret');
    expect((await call(bob, 'GET', `/radar/editions/${q3}/compare/999999`)).statusCode).toBe(404);
  });

  it('export as build-your-own-radar CSV and as JSON', async () => {
    const csv = await call(ada, 'GET', '/radar.csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="radar.csv"');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(BYOR_CSV_COLUMNS.join(','));
    expect(lines[1]).toBe(
      `lang/adopted,Adopt,Languages & Frameworks,FALSE,"Our default: \`=1+1\` and ""quotes"", commas."`,
    );
    // Against the latest edition, which has it already.
    expect(lines).toContain('new/comer,Assess,Platforms,FALSE,Because.');
    expect(csv.body).not.toContain('plat/retired');
    expect(csv.body).toContain('priv/secret');
    expect((await call(bob, 'GET', '/radar.csv')).body).not.toContain('priv/secret');

    await decide('new/comer', 'assess', 'platforms', '=cmd|calc');
    expect((await call(ada, 'GET', '/radar.csv')).body).toContain(
      "new/comer,Assess,Platforms,FALSE,'=cmd|calc",
    );

    const edition = await call(ada, 'GET', `/radar.csv?edition=${q4}`);
    expect(edition.headers['content-disposition']).toBe('attachment; filename="radar-2026-q4-final.csv"');
    expect(edition.body.split('\r\n')).toContain('new/comer,Assess,Platforms,TRUE,Because.');
    const json = await call(bob, 'GET', '/radar.json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="radar.json"');
    expect(radarSchema.parse(json.json())).toEqual(await radar(bob));
    expect(json.body).not.toContain('priv/secret');
  });
});

describe('a private repository deleted after an edition', () => {
  it('stays in the edition for admins only: nobody can prove access to it any more', async () => {
    const q3 = radarEditionsSchema
      .parse((await call(admin, 'GET', '/radar/editions')).json())
      .editions.find((edition) => edition.name === '2026 Q3');
    expect(names((await radar(ada, `?edition=${q3?.id}`)).blips)).toContain('priv/secret');
    expect((await call(admin, 'DELETE', repoPath('priv/secret'))).statusCode).toBe(200);
    expect(names((await radar(ada, `?edition=${q3?.id}`)).blips)).not.toContain('priv/secret');
    const kept = (await radar(admin, `?edition=${q3?.id}`)).blips.find(
      (blip) => blip.full_name === 'priv/secret',
    );
    expect(kept).toMatchObject({ repository_id: null, status: 'trial' });
  });
});

describe('adopted but at risk', () => {
  it('flags adopt and trial blips by health grade and open high or critical advisory', async () => {
    await add('risk/grade');
    await add('risk/archived');
    await add('risk/advisory');
    await add('risk/held');
    await setGrade('risk/grade', 'at_risk');
    await setGrade('risk/archived', 'archived');
    await setGrade('risk/held', 'at_risk');
    await t.app.db
      .insertInto('repository_advisories')
      .values(
        ['high', 'low'].map((severity, index) => ({
          repository_id: ids.get('risk/advisory') ?? 0,
          ghsa_id: `GHSA-risk-000${index}`,
          cve_id: null,
          severity: severity as 'high' | 'low',
          summary: 'bad',
          url: 'https://github.com/advisories',
          published_at: '2026-11-01T00:00:00Z',
          updated_at: '2026-11-01T00:00:00Z',
          withdrawn_at: null,
          source: 'repository' as const,
          package_ecosystem: null,
          package_name: null,
          vulnerable_range: null,
          patched_versions: null,
          fixed_in_version_id: null,
          open: 1 as const,
          found_at: '2026-11-01T00:00:00Z',
        })),
      )
      .execute();
    const before = (await atRiskEvents()).length;
    await decide('risk/grade', 'adopt', 'tools');
    await decide('risk/held', 'hold', 'tools');
    // The decision's own transaction checks at once.
    expect((await atRiskEvents()).slice(before)).toEqual([
      {
        repository_id: ids.get('risk/grade'),
        cause: 'health_at_risk',
        status: 'adopt',
        health_grade: 'at_risk',
      },
    ]);
    await decide('risk/archived', 'trial', 'tools');
    await decide('risk/advisory', 'adopt', 'tools');
    const blips = new Map((await radar(admin)).blips.map((blip) => [blip.full_name, blip]));
    expect(blips.get('risk/grade')).toMatchObject({ at_risk: true, at_risk_causes: ['health_at_risk'] });
    expect(blips.get('risk/archived')).toMatchObject({ at_risk: true, at_risk_causes: ['archived'] });
    expect(blips.get('risk/advisory')).toMatchObject({ at_risk: true, at_risk_causes: ['advisory'] });
    expect(blips.get('risk/held')).toMatchObject({
      at_risk: false,
      at_risk_causes: [],
      health_grade: 'at_risk',
    });
  });

  it('records one event per repository and cause, again only after the cause went away', async () => {
    const events = await atRiskEvents();
    expect(events.filter((event) => event.repository_id === ids.get('risk/advisory'))).toEqual([
      {
        repository_id: ids.get('risk/advisory'),
        cause: 'advisory',
        status: 'adopt',
        health_grade: null,
        advisory_ids: ['GHSA-risk-0000'],
      },
    ]);
    expect(await t.app.services.atRisk.pending()).toBe(false);
    expect(await t.app.services.atRisk.checkAll()).toEqual({ recorded: 0, cleared: 0 });
    // A rescore changes the grade without a sync: the job notices.
    await setGrade('risk/grade', 'healthy');
    await setGrade('lang/adopted', 'archived');
    expect(await t.app.services.atRisk.pending()).toBe(true);
    expect(await t.app.services.atRisk.checkAll()).toEqual({ recorded: 1, cleared: 1 });
    await setGrade('risk/grade', 'at_risk');
    expect(await t.app.services.atRisk.checkAll()).toEqual({ recorded: 1, cleared: 0 });
    const grade = (await atRiskEvents()).filter((event) => event.repository_id === ids.get('risk/grade'));
    expect(grade).toHaveLength(2);
    // Leaving adopt and trial clears the marks.
    await decide('risk/archived', 'hold', 'tools');
    expect(
      await t.app.db
        .selectFrom('radar_at_risk_marks')
        .select('cause')
        .where('repository_id', '=', ids.get('risk/archived') ?? 0)
        .execute(),
    ).toEqual([]);
  });

  it('freezes the causes into an edition', async () => {
    const edition = await publish('At risk');
    const frozen = await radar(admin, `?edition=${edition.id}`);
    await setGrade('risk/grade', 'healthy');
    expect(frozen.blips.find((blip) => blip.full_name === 'risk/grade')).toMatchObject({
      at_risk_causes: ['health_at_risk'],
      health_grade: 'at_risk',
    });
    const again = await radar(admin, `?edition=${edition.id}`);
    expect(again.blips.find((blip) => blip.full_name === 'risk/grade')?.at_risk_causes).toEqual([
      'health_at_risk',
    ]);
  });
});
