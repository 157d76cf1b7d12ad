import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { createReposTestApp, repoPath } from '../../../test/helpers/repos-app.ts';
import { startSlackSink } from '../../../test/helpers/slack-sink.ts';

let t: Awaited<ReturnType<typeof createReposTestApp>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let slack: Awaited<ReturnType<typeof startSlackSink>>;

beforeAll(async () => {
  slack = await startSlackSink();
  t = await createReposTestApp({ WEBHOOK_ALLOWED_HOSTS: `hooks.slack.com,${slack.host}` });
  member = await signedInUser(t.app);
});

afterAll(async () => {
  await t?.close();
  await slack?.close();
});

beforeEach(() => {
  t.github.reset();
  slack.failNext(null);
});

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) => t.app.inject({ method, url, headers: { ...member.headers, ...headers }, payload });

describe('versions and comparison', () => {
  it('snapshots metrics per version and compares the eight fields', async () => {
    await call('POST', '/repositories/', { id: 'vitejs/vite' });
    const first = await call('POST', repoPath('vitejs/vite', '/versions'), {
      version_number: ' v2025.8.1 ',
      release_date: '2025-08-01',
      description: '',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json().version).toMatchObject({
      version_number: 'v2025.8.1',
      release_date: '2025-08-01',
      description: null,
    });

    t.github.setSnapshot('2026-08-22');
    await call('PUT', repoPath('vitejs/vite'));
    const second = await call('POST', repoPath('vitejs/vite', '/versions'), {
      version_number: 'v2026.8.22',
      description: 'After a year',
    });
    expect(second.statusCode).toBe(201);

    const versions = await call('GET', `/api/get-versions?repo_id=${encodeURIComponent('vitejs/vite')}`);
    // The update also read vite's releases for the first time: its latest became a version of
    // its own (docs/product.md#releases); the members' two are these.
    expect(
      versions
        .json()
        .versions.filter((version: { source: string }) => version.source === 'manual')
        .map((version: { version_number: string }) => version.version_number),
    ).toEqual(['v2025.8.1', 'v2026.8.22']);

    const compared = await call(
      'GET',
      `/api/compare-versions?repo_id=${encodeURIComponent('vitejs/vite')}&version1_id=${first.json().version.id}&version2_id=${second.json().version.id}`,
    );
    expect(compared.statusCode).toBe(200);
    const { differences } = compared.json();
    expect(Object.keys(differences).sort()).toEqual(
      ['commits', 'contributors', 'description', 'forks', 'issues', 'license', 'stars', 'topics'].sort(),
    );
    expect(differences.stars.changed).toBe(true);
    expect(differences.stars.diff).toEqual([`-${differences.stars.old}`, `+${differences.stars.new}`]);
    expect(differences.license).toMatchObject({ changed: false, diff: [] });
  });

  it('validates versions and comparisons', async () => {
    await call('POST', '/repositories/', { id: 'webpack/webpack' });
    const missing = await call('POST', repoPath('webpack/webpack', '/versions'), { version_number: '  ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.version_number).toBe('Please enter a version number.');
    const version = (
      await call('POST', repoPath('webpack/webpack', '/versions'), { version_number: 'v1' })
    ).json().version;
    const same = await call(
      'GET',
      `/api/compare-versions?repo_id=${encodeURIComponent('webpack/webpack')}&version1_id=${version.id}&version2_id=${version.id}`,
    );
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Please select two different versions to compare.');
    const none = await call('GET', `/api/compare-versions?repo_id=${encodeURIComponent('webpack/webpack')}`);
    expect(none.statusCode).toBe(400);
  });
});

describe('GET /repositories/export', () => {
  it('streams an RFC 4180 CSV named repositories_YYYY-MM-DD.csv, one row per visible repository, formulas escaped', async () => {
    await call('POST', '/repositories/', { id: 'lodash/lodash' });
    await call('PUT', repoPath('lodash/lodash', '/metadata/'), {
      tags: '=HYPERLINK("http://evil"),+1,-2,@cmd',
      notes: 'Line one\r\nLine "two", with comma',
    });
    const response = await call('GET', '/repositories/export', undefined, { accept: 'text/csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="repositories_${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    const all = (await call('GET', '/repositories/')).json().repositories;
    expect(rows).toHaveLength(all.length);
    const lodash = rows.find((row) => row.id === 'lodash/lodash');
    expect(lodash?.tags).toBe(`'=HYPERLINK("http://evil"),+1,-2,@cmd`);
    expect(lodash?.notes).toBe('Line one\r\nLine "two", with comma');
    expect(response.body).toMatch(/\r\n/);
    expect(Object.keys(lodash ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'stars', 'license', 'tags', 'notes']),
    );
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/repositories/export' })).statusCode).toBe(401);
  });
});

describe('Slack notifications', () => {
  const slackJobs = () =>
    t.app.db
      .selectFrom('jobs')
      .select(['id', 'payload', 'status', 'attempts', 'last_error'])
      .where('kind', '=', 'slack-message')
      .orderBy('id')
      .execute();

  it('are queued by the add, whose answer never waits for Slack, then sent with the outcome recorded', async () => {
    await call('PUT', '/auth/me/slack-webhook', { url: slack.url });
    const added = await call('POST', '/repositories/', { id: 'babel/babel', notify_slack: true });
    expect(added.statusCode).toBe(201);
    expect(added.json().notification).toEqual({ queued: true });
    await expect
      .poll(() => slack.messages.at(-1)?.text)
      .toMatch(/added <https:\/\/github.com\/babel\/babel\|babel\/babel>/);
    await expect
      .poll(async () => (await slackJobs()).at(-1))
      .toMatchObject({ status: 'succeeded', attempts: 1 });
    // The webhook URL is the secret: the job holds the member and the text, never the URL.
    expect(JSON.stringify(await slackJobs())).not.toContain(slack.url);

    const silent = await call('POST', '/repositories/', { id: 'eslint/eslint', notify_slack: false });
    expect(silent.json().notification).toBeUndefined();
  });

  it('are retried when Slack fails, and never fail the add', async () => {
    await call('PUT', '/auth/me/slack-webhook', { url: slack.url });
    slack.failNext(500);
    const failed = await call('POST', '/repositories/', { id: 'prettier/prettier', notify_slack: true });
    expect(failed.statusCode).toBe(201);
    expect(failed.json().notification).toEqual({ queued: true });
    await expect
      .poll(async () => (await slackJobs()).at(-1))
      .toMatchObject({ status: 'pending', attempts: 1, last_error: 'Slack answered HTTP 500' });

    // Slack is back; the retry's time comes (10 s of back-off, skipped here).
    slack.failNext(null);
    const job = (await slackJobs()).at(-1);
    await t.app.db
      .updateTable('jobs')
      .set({ run_at: new Date().toISOString() })
      .where('id', '=', job?.id ?? 0)
      .execute();
    t.app.services.jobs.wake();
    await expect
      .poll(async () => (await slackJobs()).at(-1))
      .toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(slack.messages.at(-1)?.text).toMatch(/prettier\/prettier/);
  });

  it('say so in the answer when the member has no webhook', async () => {
    await call('DELETE', '/auth/me/slack-webhook');
    const added = await call('POST', '/repositories/', { id: 'axios/axios', notify_slack: true });
    expect(added.statusCode).toBe(201);
    expect(added.json().notification).toEqual({
      sent: false,
      error: 'No Slack webhook is configured in Settings.',
    });
  });
});
