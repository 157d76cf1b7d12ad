import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_ADVISORIES, SEEDED_ADVISORY_IDS, versionInRange } from './advisories.ts';
import { dateRange } from './advisory-routes.ts';
import { schemaErrors } from './openapi-schemas.ts';
import { SNAPSHOT_DATES } from './ranking-snapshots.ts';
import { type GitHubDouble, startGitHubDouble } from './server.ts';
import { PRIVATE_REPOSITORY } from './special-repositories.ts';

const [OLDER, NEWER] = SNAPSHOT_DATES;
const TOKEN = 'ghp_advisory_reader';

interface GlobalAdvisory {
  ghsa_id: string;
  cve_id: string | null;
  severity: string;
  type: string;
  withdrawn_at: string | null;
  published_at: string;
  updated_at: string;
  repository_advisory_url: string | null;
  source_code_location: string | null;
  vulnerabilities: Array<{
    package: { ecosystem: string; name: string };
    first_patched_version: string | null;
  }>;
}
interface RepositoryAdvisory {
  ghsa_id: string;
  state: string;
  severity: string | null;
  vulnerabilities: Array<{ package: { ecosystem: string; name: string }; patched_versions: string | null }>;
}

let double: GitHubDouble;

beforeAll(async () => {
  double = await startGitHubDouble({ control: true, snapshot: NEWER });
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => {
  double.reset();
  double.setSnapshot(NEWER);
});

async function get<T>(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${double.url}${path}`, {
    headers: { authorization: `token ${TOKEN}`, ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : undefined) as T,
  };
}

const ids = (list: Array<{ ghsa_id: string }>) => list.map((advisory) => advisory.ghsa_id);
const nextLink = (link: string | null) => /<([^>]+)>; rel="next"/.exec(link ?? '')?.[1];

describe('GET /advisories', () => {
  it('lists reviewed advisories newest published first, in GitHub’s shape', async () => {
    const answer = await get<GlobalAdvisory[]>('/advisories');
    expect(answer.status).toBe(200);
    expect(schemaErrors('security-advisories/list-global-advisories', 200, answer.body)).toEqual([]);
    expect(ids(answer.body)).toEqual([...SEEDED_ADVISORIES].reverse().map((advisory) => advisory.ghsaId));
    expect(answer.headers.get('x-ratelimit-resource')).toBe('core');
    expect(answer.headers.get('etag')).toMatch(/^W\/"/);
    expect(double.counts.get('GET /advisories')).toBe(1);
    const express = answer.body.find((advisory) => advisory.ghsa_id === SEEDED_ADVISORY_IDS.expressPatched);
    expect(express).toMatchObject({
      severity: 'medium',
      type: 'reviewed',
      source_code_location: 'https://github.com/expressjs/express',
      repository_advisory_url: `${double.url}/repos/expressjs/express/security-advisories/${SEEDED_ADVISORY_IDS.expressPatched}`,
      vulnerabilities: [{ package: { ecosystem: 'npm', name: 'express' }, first_patched_version: '4.21.1' }],
    });
    expect(express?.cve_id).toMatch(/^CVE-2024-\d{5}$/);
    expect(express?.ghsa_id).toMatch(/^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/);
    const axios = answer.body.find((advisory) => advisory.ghsa_id === SEEDED_ADVISORY_IDS.axiosUnpatched);
    expect(axios?.vulnerabilities[0]?.first_patched_version).toBeNull();
    expect(answer.body.find((a) => a.ghsa_id === SEEDED_ADVISORY_IDS.laravelUnknown)?.severity).toBe(
      'unknown',
    );
    expect(answer.body.find((a) => a.ghsa_id === SEEDED_ADVISORY_IDS.lodashWithdrawn)?.withdrawn_at).toBe(
      '2026-02-03T09:12:00Z',
    );
  });

  it('filters by ecosystem, affects (names and name@version), severity, modified and is_withdrawn', async () => {
    const query = async (search: string) => ids((await get<GlobalAdvisory[]>(`/advisories?${search}`)).body);
    expect(await query('ecosystem=npm')).toEqual([
      SEEDED_ADVISORY_IDS.axiosUnpatched,
      SEEDED_ADVISORY_IDS.lodashWithdrawn,
      SEEDED_ADVISORY_IDS.expressPatched,
    ]);
    expect(await query('ecosystem=npm&affects=express,react,axios')).toEqual([
      SEEDED_ADVISORY_IDS.axiosUnpatched,
      SEEDED_ADVISORY_IDS.expressPatched,
    ]);
    expect(await query('affects=express@4.21.1,axios@1.5.0')).toEqual([SEEDED_ADVISORY_IDS.axiosUnpatched]);
    expect(await query('affects=express@4.20.0')).toEqual([SEEDED_ADVISORY_IDS.expressPatched]);
    expect(await query('affects=django&ecosystem=pip&severity=critical')).toEqual([
      SEEDED_ADVISORY_IDS.djangoCritical,
    ]);
    expect(await query('ecosystem=go&affects=github.com/gin-gonic/gin')).toEqual([
      SEEDED_ADVISORY_IDS.ginHigh,
    ]);
    expect(await query('modified=>=2026-01-01')).toEqual([
      SEEDED_ADVISORY_IDS.laravelUnknown,
      SEEDED_ADVISORY_IDS.axiosUnpatched,
      SEEDED_ADVISORY_IDS.lodashWithdrawn,
    ]);
    expect(await query('is_withdrawn=true')).toEqual([SEEDED_ADVISORY_IDS.lodashWithdrawn]);
    expect(await query('is_withdrawn=false&ecosystem=npm')).toEqual([
      SEEDED_ADVISORY_IDS.axiosUnpatched,
      SEEDED_ADVISORY_IDS.expressPatched,
    ]);
    expect(await query('type=malware')).toEqual([]);
    expect((await get('/advisories?ecosystem=cobol')).status).toBe(422);
    expect((await get('/advisories?modified=yesterday')).status).toBe(422);
  });

  it('pages with after/before cursors and a Link header of next and prev', async () => {
    const all = ids((await get<GlobalAdvisory[]>('/advisories')).body);
    const first = await get<GlobalAdvisory[]>('/advisories?per_page=3');
    expect(ids(first.body)).toEqual(all.slice(0, 3));
    const next = nextLink(first.headers.get('link'));
    expect(next).toMatch(/\/advisories\?per_page=3&after=/);
    expect(first.headers.get('link')).not.toContain('rel="prev"');
    const second = await get<GlobalAdvisory[]>(next ?? '');
    expect(ids(second.body)).toEqual(all.slice(3, 6));
    const prev = /<([^>]+)>; rel="prev"/.exec(second.headers.get('link') ?? '')?.[1];
    expect(prev).toContain('before=');
    expect(ids((await get<GlobalAdvisory[]>(prev ?? '')).body)).toEqual(all.slice(0, 3));
    const third = await get<GlobalAdvisory[]>(nextLink(second.headers.get('link')) ?? '');
    expect(ids(third.body)).toEqual(all.slice(6));
    expect(nextLink(third.headers.get('link'))).toBeUndefined();
    expect((await get('/advisories?after=bm9wZQ==')).status).toBe(400);
  });

  it('serves each snapshot as of its own date', async () => {
    double.setSnapshot(OLDER);
    const older = (await get<GlobalAdvisory[]>('/advisories')).body;
    expect(ids(older)).toEqual([
      SEEDED_ADVISORY_IDS.tokioLow,
      SEEDED_ADVISORY_IDS.djangoCritical,
      SEEDED_ADVISORY_IDS.lodashWithdrawn,
      SEEDED_ADVISORY_IDS.expressPatched,
    ]);
    // Withdrawn only in February 2026.
    expect(older.find((a) => a.ghsa_id === SEEDED_ADVISORY_IDS.lodashWithdrawn)?.withdrawn_at).toBeNull();
  });

  it('answers 304 to If-None-Match, free with a token, and a new ETag after a change', async () => {
    const first = await get<GlobalAdvisory[]>('/advisories?ecosystem=npm');
    const etag = first.headers.get('etag') ?? '';
    const before = double.quota(TOKEN).remaining;
    const again = await get('/advisories?ecosystem=npm', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(double.quota(TOKEN).remaining).toBe(before);
    double.withdrawAdvisory(SEEDED_ADVISORY_IDS.expressPatched);
    const changed = await get<GlobalAdvisory[]>('/advisories?ecosystem=npm', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(
      changed.body.find((a) => a.ghsa_id === SEEDED_ADVISORY_IDS.expressPatched)?.withdrawn_at,
    ).not.toBeNull();
  });
});

describe('GET /repos/{owner}/{repo}/security-advisories', () => {
  it('lists a repository’s published advisories in GitHub’s shape', async () => {
    const answer = await get<RepositoryAdvisory[]>('/repos/expressjs/express/security-advisories');
    expect(answer.status).toBe(200);
    expect(schemaErrors('security-advisories/list-repository-advisories', 200, answer.body)).toEqual([]);
    expect(answer.body).toMatchObject([
      {
        ghsa_id: SEEDED_ADVISORY_IDS.expressPatched,
        state: 'published',
        severity: 'medium',
        vulnerabilities: [{ package: { ecosystem: 'npm', name: 'express' }, patched_versions: '4.21.1' }],
      },
    ]);
    expect(double.counts.get('GET /repos/{owner}/{repo}/security-advisories')).toBe(1);
    expect((await get<RepositoryAdvisory[]>('/repos/facebook/react/security-advisories')).body).toEqual([]);
    // The global one of lodash was not published by the repository.
    expect((await get<RepositoryAdvisory[]>('/repos/lodash/lodash/security-advisories')).body).toEqual([]);
  });

  it('answers 404 for missing and private repositories, 301 for a former name', async () => {
    expect((await get('/repos/nobody/nothing/security-advisories')).status).toBe(404);
    double.grantPrivateAccess(TOKEN);
    expect((await get(`/repos/${PRIVATE_REPOSITORY}/security-advisories`)).status).toBe(404);
    double.renameRepository('expressjs/express', 'expressjs/express-moved');
    const moved = await fetch(`${double.url}/repos/expressjs/express/security-advisories`, {
      headers: { authorization: `token ${TOKEN}` },
      redirect: 'manual',
    });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toMatch(/\/repositories\/\d+\/security-advisories$/);
    const followed = await get<RepositoryAdvisory[]>(moved.headers.get('location') ?? '');
    expect(ids(followed.body)).toEqual([SEEDED_ADVISORY_IDS.expressPatched]);
  });

  it('pages with per_page and cursors', async () => {
    for (const summary of ['one', 'two', 'three']) {
      double.addAdvisory({
        summary,
        repository: 'tokio-rs/tokio',
        repositoryAdvisory: true,
        vulnerabilities: [{ ecosystem: 'rust', package: 'tokio' }],
      });
    }
    const first = await get<RepositoryAdvisory[]>('/repos/tokio-rs/tokio/security-advisories?per_page=2');
    expect(first.body).toHaveLength(2);
    const second = await get<RepositoryAdvisory[]>(nextLink(first.headers.get('link')) ?? '');
    expect(second.body).toHaveLength(2);
    expect(nextLink(second.headers.get('link'))).toBeUndefined();
    expect(new Set([...ids(first.body), ...ids(second.body)]).size).toBe(4);
  });
});

describe('advisories added and withdrawn at runtime', () => {
  it('through the handle', async () => {
    const added = double.addAdvisory({
      summary: 'react-dom XSS in hydration',
      severity: 'high',
      repository: 'facebook/react',
      vulnerabilities: [
        {
          ecosystem: 'npm',
          package: 'react-dom',
          vulnerableVersionRange: '< 19.1.1',
          firstPatchedVersion: '19.1.1',
        },
      ],
    });
    const found = await get<GlobalAdvisory[]>('/advisories?ecosystem=npm&affects=react-dom');
    expect(ids(found.body)).toEqual([added.ghsaId]);
    expect(schemaErrors('security-advisories/list-global-advisories', 200, found.body)).toEqual([]);
    // Added ones are served in the other snapshot too.
    double.setSnapshot(OLDER);
    expect(ids((await get<GlobalAdvisory[]>('/advisories?affects=react-dom')).body)).toEqual([added.ghsaId]);
    expect(double.withdrawAdvisory(added.ghsaId)).toBe(true);
    expect(double.withdrawAdvisory('GHSA-2222-2222-2222')).toBe(false);
    expect(
      ids((await get<GlobalAdvisory[]>('/advisories?affects=react-dom&is_withdrawn=true')).body),
    ).toEqual([added.ghsaId]);
    double.reset();
    expect((await get<GlobalAdvisory[]>('/advisories?affects=react-dom')).body).toEqual([]);
  });

  it('through the control routes', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${double.url}/_double/${path}`, { method: 'POST', body: JSON.stringify(body) });
    const response = await post('advisories/add', {
      summary: 'gin panics on malformed multipart bodies',
      severity: 'low',
      repository: 'gin-gonic/gin',
      repositoryAdvisory: true,
      vulnerabilities: [
        { ecosystem: 'go', package: 'github.com/gin-gonic/gin', vulnerableVersionRange: '< 1.11.0' },
      ],
    });
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: { ghsaId: string } };
    const listed = await get<RepositoryAdvisory[]>('/repos/gin-gonic/gin/security-advisories');
    expect(ids(listed.body)).toContain(result.ghsaId);
    expect((await post('advisories/withdraw', { ghsaId: result.ghsaId })).status).toBe(200);
    const after = await get<RepositoryAdvisory[]>('/repos/gin-gonic/gin/security-advisories');
    expect(after.body.find((a) => a.ghsa_id === result.ghsaId)?.state).toBe('withdrawn');
    expect((await post('advisories/withdraw', { ghsaId: 'GHSA-2222-2222-2222' })).status).toBe(422);
    expect((await post('advisories/add', { summary: 'no packages', vulnerabilities: [] })).status).toBe(400);
  });
});

describe('helpers', () => {
  it('matches version ranges and GitHub’s date syntax', () => {
    expect(versionInRange('1.5.0', '>= 1.0.0, <= 1.11.0')).toBe(true);
    expect(versionInRange('1.12.0', '>= 1.0.0, <= 1.11.0')).toBe(false);
    expect(versionInRange('4.21.1', '< 4.21.1')).toBe(false);
    const day = Date.parse('2026-01-01T10:00:00Z');
    expect(dateRange('2026-01-01')?.(day)).toBe(true);
    expect(dateRange('>2026-01-01')?.(day)).toBe(false);
    expect(dateRange('2025-12-01..2026-01-01')?.(day)).toBe(true);
    expect(dateRange('2026-01-02..*')?.(day)).toBe(false);
    expect(dateRange('<=2025-12-31')?.(day)).toBe(false);
    expect(dateRange('soon')).toBeUndefined();
  });
});
