import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdvisoriesResponse, advisoriesResponseSchema } from '#shared/schemas/advisories.ts';
import { ghsaIdFor } from '../../../test/github-double/advisories.ts';
import { PRIVATE_REPOSITORY } from '../../../test/github-double/index.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';

/**
 * Security advisories end to end against the GitHub double (docs/product.md#advisories): the
 * packages detected from the manifests the health query read, a repository's own advisories and
 * the global database's for its packages, one row per GHSA id, the first read silent, a new one
 * an event, a withdrawal marked, open/fixed by the tracked versions, the members' package edits,
 * the list's counts and filter, and visibility.
 */

const SERVER_TOKEN = 'ghp_advisoriesServer00000001';
const OWNER_TOKEN = 'ghp_advisoriesOwnerPrivate01';
let t: Awaited<ReturnType<typeof createReposTestApp>>;
type Member = Awaited<ReturnType<typeof signedInUser>>;
let ada: Member;
let bob: Member;

const EXPRESS = 'expressjs/express';
const DJANGO = 'django/django';
const TOKIO = 'tokio-rs/tokio';
const EXPRESS_REDIRECT = ghsaIdFor('express-open-redirect');
const DJANGO_INJECTION = ghsaIdFor('django-sql-injection');
const TOKIO_RACE = ghsaIdFor('tokio-broadcast-race');
// Withdrawn after the double's snapshot date: still published as the double serves it.
const LODASH_POLLUTION = ghsaIdFor('lodash-prototype-pollution');

const call = (who: Member, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, payload });

async function advisoriesOf(who: Member, id: string): Promise<AdvisoriesResponse> {
  const response = await call(who, 'GET', repoPath(id, '/advisories'));
  expect(response.statusCode, response.body).toBe(200);
  return advisoriesResponseSchema.parse(response.json());
}

async function advisoryEvents(): Promise<{ ghsa: string; repository: number }[]> {
  const rows = await t.app.db
    .selectFrom('repository_events')
    .select(['data', 'repository_id'])
    .where('type', '=', 'advisory_published')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ghsa: JSON.parse(row.data).ghsa_id, repository: row.repository_id }));
}

async function healthRun() {
  await t.app.db
    .updateTable('repository_health')
    .set({ due_at: new Date(0).toISOString() })
    .execute();
  for (let runs = 0; runs < 10; runs++) {
    const outcome = await t.app.services.health.refreshDue({ deadline: Date.now() + 60_000 });
    if (!outcome.retryAt) return;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, (outcome.retryAt?.getTime() ?? 0) - Date.now())),
    );
  }
}

async function dailyRead() {
  for (let runs = 0; runs < 10; runs++) {
    const retryAt = await t.app.services.advisories.refreshListed({ deadline: Date.now() + 60_000 });
    if (!retryAt) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, retryAt.getTime() - Date.now())));
  }
}

beforeAll(async () => {
  t = await createReposTestApp(
    { GITHUB_TOKEN: SERVER_TOKEN, SYNC_SCHEDULE: 'off' },
    { preloadGraphqlSchema: true },
  );
  ada = await signedInUser(t.app);
  bob = await signedInUser(t.app);
  t.github.grantPrivateAccess(OWNER_TOKEN);
  expect((await call(ada, 'PUT', '/auth/me/github-token', { token: OWNER_TOKEN })).statusCode).toBe(200);
  for (const id of [EXPRESS, DJANGO, TOKIO, PRIVATE_REPOSITORY])
    expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
  await healthRun();
});
afterAll(async () => {
  await t?.close();
});

describe('the first read', () => {
  it('detects the packages, finds both sources’ advisories once each, and records no event', async () => {
    const express = await advisoriesOf(bob, EXPRESS);
    expect(express.packages).toEqual([{ ecosystem: 'npm', name: 'express', detected: true }]);
    // Published by the repository and listed in the database for its package: one row.
    expect(express.advisories.map((advisory) => advisory.ghsa_id)).toEqual([EXPRESS_REDIRECT]);
    expect(express.advisories[0]).toMatchObject({
      severity: 'medium',
      package: { ecosystem: 'npm', name: 'express' },
      patched_versions: '4.21.1',
      withdrawn_at: null,
      // No tracked version reaches 4.21.1.
      open: true,
      fixed_in_version_id: null,
    });
    expect(express.read_at).not.toBeNull();

    const django = await advisoriesOf(bob, DJANGO);
    expect(django.advisories).toMatchObject([
      { ghsa_id: DJANGO_INJECTION, severity: 'critical', source: 'global', open: true },
    ]);
    const tokio = await advisoriesOf(bob, TOKIO);
    expect(tokio.packages).toEqual([{ ecosystem: 'rust', name: 'tokio', detected: true }]);
    expect(tokio.advisories).toMatchObject([{ ghsa_id: TOKIO_RACE, severity: 'low', source: 'repository' }]);

    expect(await advisoryEvents()).toEqual([]);
  });

  it('counts the open ones on list rows, filters by minimum severity, and totals them in the statistics', async () => {
    const list = (await call(bob, 'GET', '/repositories/?limit=50')).json().repositories as {
      id: string;
      open_advisories: Record<string, number>;
    }[];
    expect(list.find((row) => row.id === DJANGO)?.open_advisories).toEqual({
      critical: 1,
      high: 0,
      medium: 0,
      low: 0,
      unknown: 0,
    });
    const ids = async (severity: string) =>
      (
        (await call(bob, 'GET', `/repositories/?advisories=${severity}`)).json().repositories as {
          id: string;
        }[]
      )
        .map((row) => row.id)
        .sort();
    expect(await ids('critical')).toEqual([DJANGO]);
    expect(await ids('high')).toEqual([DJANGO]);
    expect(await ids('medium')).toEqual([DJANGO, EXPRESS].sort());
    expect(await ids('unknown')).toEqual([DJANGO, EXPRESS].sort());
    expect((await call(bob, 'GET', '/repositories/?advisories=severe')).statusCode).toBe(400);

    const stats = (await call(bob, 'GET', '/repositories/stats')).json();
    expect(stats.open_advisories).toEqual({ critical: 1, high: 0, medium: 1, low: 0, unknown: 0 });
    expect(stats.health_grades.map((entry: { grade: string }) => entry.grade)).toEqual([
      'healthy',
      'watch',
      'at_risk',
      'archived',
      'unknown',
    ]);
    const [header = [], row = []] = parse(
      (await call(bob, 'GET', '/repositories/export?advisories=critical')).body,
    ) as string[][];
    expect(row[header.indexOf('advisories_critical')]).toBe('1');
  });
});

describe('later reads', () => {
  it('a newly published advisory is one event; a withdrawal is marked, not deleted', async () => {
    const added = t.github.addAdvisory({
      summary: 'Express body parsing exhausts memory',
      severity: 'high',
      vulnerabilities: [
        {
          ecosystem: 'npm',
          package: 'express',
          vulnerableVersionRange: '< 5.0.0',
          firstPatchedVersion: '5.0.0',
        },
      ],
    });
    await dailyRead();
    const express = await advisoriesOf(bob, EXPRESS);
    expect(express.advisories.map((advisory) => advisory.ghsa_id).sort()).toEqual(
      [EXPRESS_REDIRECT, added.ghsaId].sort(),
    );
    const events = await advisoryEvents();
    expect(events.map((event) => event.ghsa)).toEqual([added.ghsaId]);

    // Read again: nothing new, no second event.
    await dailyRead();
    expect(await advisoryEvents()).toHaveLength(1);

    expect(t.github.withdrawAdvisory(added.ghsaId)).toBe(true);
    await dailyRead();
    const withdrawn = (await advisoriesOf(bob, EXPRESS)).advisories.find(
      (advisory) => advisory.ghsa_id === added.ghsaId,
    );
    expect(withdrawn).toMatchObject({ open: false });
    expect(withdrawn?.withdrawn_at).not.toBeNull();
    expect(await advisoryEvents()).toHaveLength(1);
  });

  it('a tracked version at or past the first patched one fixes it, linked to that version', async () => {
    const repository = await t.app.db
      .selectFrom('repositories')
      .select('id')
      .where('full_name', '=', EXPRESS)
      .executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const version = (id: string) => ({
      repository_id: repository.id,
      user_id: null,
      version_number: id,
      release_date: now.slice(0, 10),
      description: null,
      snapshot: '{}',
      created_at: now,
    });
    await t.app.db
      .insertInto('versions')
      .values([version('v4.19.0'), version('v4.21.1'), version('v4.21.2')])
      .execute();
    const fixing = await t.app.db
      .selectFrom('versions')
      .select('id')
      .where('version_number', '=', 'v4.21.1')
      .executeTakeFirstOrThrow();
    await t.app.db.transaction().execute((trx) => t.app.services.advisories.judgeAgain(trx, repository.id));
    const redirect = (await advisoriesOf(bob, EXPRESS)).advisories.find(
      (advisory) => advisory.ghsa_id === EXPRESS_REDIRECT,
    );
    expect(redirect).toMatchObject({ open: false, fixed_in_version_id: fixing.id });
    const list = (await call(bob, 'GET', '/repositories/?advisories=unknown')).json().repositories as {
      id: string;
    }[];
    expect(list.map((row) => row.id)).not.toContain(EXPRESS);
  });
});

describe('packages', () => {
  it('a member’s list survives re-detection; a package added is read in full, silently', async () => {
    const put = await call(bob, 'PUT', repoPath(EXPRESS, '/packages'), {
      packages: [{ ecosystem: 'npm', name: 'lodash' }],
    });
    expect(put.statusCode, put.body).toBe(200);
    const answer = advisoriesResponseSchema.parse(put.json());
    expect(answer.packages).toEqual([{ ecosystem: 'npm', name: 'lodash', detected: false }]);
    // The database's advisories for express went with its package (its own one stays); nothing
    // of lodash is read yet.
    expect(answer.advisories.map((advisory) => [advisory.ghsa_id, advisory.source])).toEqual([
      [EXPRESS_REDIRECT, 'repository'],
    ]);

    const eventsBefore = (await advisoryEvents()).length;
    await dailyRead();
    const lodash = (await advisoriesOf(bob, EXPRESS)).advisories.find(
      (advisory) => advisory.ghsa_id === LODASH_POLLUTION,
    );
    // No patched version: open whatever is tracked.
    expect(lodash).toMatchObject({
      open: true,
      patched_versions: null,
      withdrawn_at: null,
      package: { ecosystem: 'npm', name: 'lodash' },
    });
    expect(await advisoryEvents()).toHaveLength(eventsBefore);

    // The manifests read again: express is detected again but stays off the member's list.
    await healthRun();
    expect((await advisoriesOf(bob, EXPRESS)).packages).toEqual([
      { ecosystem: 'npm', name: 'lodash', detected: false },
    ]);
  });

  it('refuses a malformed list with a clear message and changes nothing', async () => {
    const before = await advisoriesOf(bob, EXPRESS);
    for (const packages of [
      [{ ecosystem: 'npm', name: 'a b' }],
      [{ ecosystem: 'cobol', name: 'x' }],
      [
        { ecosystem: 'npm', name: 'Left' },
        { ecosystem: 'npm', name: 'left' },
      ],
    ]) {
      const response = await call(bob, 'PUT', repoPath(EXPRESS, '/packages'), { packages });
      expect(response.statusCode, JSON.stringify(packages)).toBe(400);
      expect(response.json().detail ?? response.json().message).toBeTruthy();
    }
    expect(await advisoriesOf(bob, EXPRESS)).toEqual(before);
  });
});

describe('visibility', () => {
  it('a private repository’s advisories and packages answer only those who may see it', async () => {
    expect((await advisoriesOf(ada, PRIVATE_REPOSITORY)).advisories).toEqual([]);
    expect((await call(bob, 'GET', repoPath(PRIVATE_REPOSITORY, '/advisories'))).statusCode).toBe(404);
    expect(
      (await call(bob, 'PUT', repoPath(PRIVATE_REPOSITORY, '/packages'), { packages: [] })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: repoPath(EXPRESS, '/advisories') })).statusCode).toBe(
      401,
    );
  });
});

describe('the health run’s batch', () => {
  it('reads GitHub’s database once per ecosystem for all the batch’s new packages', async () => {
    // Two JavaScript repositories (each publishes an npm package): one query, one database read.
    for (const id of ['facebook/react', 'vuejs/core'])
      expect((await call(ada, 'POST', '/repositories/', { id })).statusCode).toBe(201);
    t.github.resetCounts();
    await healthRun();
    expect(t.github.counts.get('GET /advisories')).toBe(1);
    for (const id of ['facebook/react', 'vuejs/core']) {
      const { packages, read_at } = await advisoriesOf(bob, id);
      expect(packages, id).toEqual([{ ecosystem: 'npm', name: id.split('/')[1], detected: true }]);
      expect(read_at, id).not.toBeNull();
    }
    // Read, so the next health run asks the database nothing.
    t.github.resetCounts();
    await healthRun();
    expect(t.github.counts.get('GET /advisories') ?? 0).toBe(0);
  });
});
