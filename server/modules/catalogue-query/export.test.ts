import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryPageSchema } from '#shared/schemas/catalogue.ts';
import { signedInUser } from '../../../test/helpers/auth-factory.ts';
import { buildCatalogue, CATALOGUE_NOW, seedCatalogue } from '../../../test/helpers/catalogue-fixtures.ts';
import { createFakeClock } from '../../../test/helpers/fake-clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { rebuildDerivedTables } from '../../repository/repository-labels.ts';

/**
 * GET /repositories/export takes the list's filters and sort, and streams from the database in
 * batches as the client reads: a client that stops reading holds the reads back, and one that
 * goes away ends them (docs/product.md#catalogue-queries).
 */
let t: TestApp;
let member: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;
let baseUrl: string;
const logLines: string[] = [];
/** Rows tagged `bulk` with 8 KiB of notes each: 40 MiB of CSV, far more than socket buffers hold. */
const BULK_ROWS = 5000;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    { clock: createFakeClock(CATALOGUE_NOW), logStream: { write: (line) => void logLines.push(line) } },
  );
  member = await signedInUser(t.app);
  other = await signedInUser(t.app);
  await seedCatalogue(t.app.db, buildCatalogue({ alice: member.id, bob: other.id }));
  // Written straight into the table, as a bulk load would, then the derived rows rebuilt.
  const notes = 'n'.repeat(8192);
  for (let start = 0; start < BULK_ROWS; start += 250) {
    await t.app.db
      .insertInto('repositories')
      .values(
        Array.from({ length: Math.min(250, BULK_ROWS - start) }, (_, offset) => {
          const index = start + offset;
          return {
            full_name: `bulk/repository-${String(index).padStart(5, '0')}`,
            github_id: 7_000_000 + index,
            user_id: member.id,
            name: `repository-${index}`,
            description: 'Bulk row',
            url: `https://github.com/bulk/repository-${index}`,
            license: 'MIT',
            topics: '',
            tags: 'bulk',
            notes,
            stars: index % 100,
            forks: 0,
            issues: 0,
            commits: 1,
            contributors: 1,
            contributors_capped: 0 as const,
            language: 'Go',
            archived: 0 as const,
            private: 0 as const,
            gone: 0 as const,
            default_branch: 'main',
            last_commit: null,
            last_synced: null,
            etags: '{}',
            created_at: CATALOGUE_NOW.toISOString(),
            updated_at: CATALOGUE_NOW.toISOString(),
          };
        }),
      )
      .execute();
  }
  await rebuildDerivedTables(t.app.db, new Date());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
});

const get = (params: Record<string, string>, path = '/repositories/export') =>
  t.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(params)}`, headers: member.headers });

async function listIds(params: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await get({ ...params, limit: '500', ...(cursor ? { cursor } : {}) }, '/repositories/');
    const page = repositoryPageSchema.parse(response.json());
    ids.push(...page.repositories.map((repository) => repository.id));
    cursor = page.next_cursor;
  } while (cursor);
  return ids;
}

describe('GET /repositories/export with filters', () => {
  it.each<Record<string, string>>([
    { tags: 'frontend', sort: 'stars' },
    { q: 'parser', sort: 'name', order: 'desc' },
    { license: 'No License', archived: 'false' },
    { topics: 'cli', added_by: 'me', sort: 'last_synced', order: 'asc' },
    { min_growth_30d: '5', sort: 'growth_30d' },
    { sort: 'growth_7d', order: 'asc' },
  ])('%o: exactly the rows the list shows, in its order', async (params) => {
    const response = await get(params);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    const listed = await listIds(params);
    expect(listed.length).toBeGreaterThan(0);
    expect(rows.map((row) => row.id)).toEqual(listed);
  });

  it('exports across several database batches (1,500 bulk rows, 500 at a time)', async () => {
    const params = { tags: 'bulk', max_stars: '29', sort: 'name' };
    const response = await get(params);
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1500);
    expect(rows.map((row) => row.id)).toEqual(await listIds(params));
    const done = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'repositories exported');
    expect(done.at(-1)).toMatchObject({ rows: 1500, complete: true, user_id: member.id });
  });

  it('carries the 7- and 30-day growth in two columns, empty without enough history', async () => {
    const params = { sort: 'growth_30d', tags: 'frontend' };
    const rows = parse((await get(params)).body, { columns: true }) as Record<string, string>[];
    const page = repositoryPageSchema.parse(
      (await get({ ...params, limit: '500' }, '/repositories/')).json(),
    );
    expect(rows.map((row) => [row.stars_7d, row.stars_30d])).toEqual(
      page.repositories.map((repository) => [
        repository.growth.stars_7d === null ? '' : String(repository.growth.stars_7d),
        repository.growth.stars_30d === null ? '' : String(repository.growth.stars_30d),
      ]),
    );
    expect(rows.some((row) => row.stars_30d === '')).toBe(true);
    expect(rows.some((row) => row.stars_30d !== '')).toBe(true);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'zstd', zstdDecompressSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['gzip, deflate', 'gzip', gunzipSync],
  ] as const)('offered %s, compresses with %s, the same bytes', async (offered, encoding, decompress) => {
    const params = { tags: 'frontend', sort: 'stars' };
    const url = `/repositories/export?${new URLSearchParams(params)}`;
    const plain = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...member.headers, 'accept-encoding': 'identity' },
    });
    const packed = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...member.headers, 'accept-encoding': offered },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(decompress(packed.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
  });

  it('refuses malformed filters', async () => {
    expect((await get({ min_growth_30d: '1.5' })).statusCode).toBe(400);
    expect((await get({ min_stars: '-1' })).statusCode).toBe(400);
    expect((await get({ sort: 'nope' })).json().fields.sort).toMatch(/Unknown sort column/);
  });
});

describe('a client that stops reading, then goes away', () => {
  it('holds the database reads back, then ends them', async () => {
    const stopped = () =>
      logLines
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'repositories export stopped: the client went away');
    const before = stopped().length;
    const received = await new Promise<number>((resolve, reject) => {
      const call = request(`${baseUrl}/repositories/export?tags=bulk&sort=name`, {
        headers: member.headers,
      });
      call.on('error', reject);
      call.on('response', (response) => {
        expect(response.statusCode).toBe(200);
        let bytes = 0;
        response.once('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // Stop reading: the socket buffers fill, and the server must stop producing rows.
          response.pause();
          setTimeout(() => {
            call.destroy();
            resolve(bytes);
          }, 300);
        });
        response.on('error', () => {});
      });
      call.end();
    });
    expect(received).toBeGreaterThan(0);
    // The export notices the disconnect and reports how far it got.
    const deadline = Date.now() + 1000;
    while (stopped().length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const report = stopped().at(-1);
    expect(report).toMatchObject({ complete: false, user_id: member.id });
    // Far fewer rows than the export holds were read: only what the buffers took.
    expect(report.rows).toBeGreaterThan(0);
    expect(report.rows).toBeLessThan(BULK_ROWS / 2);
    // And nothing more happens afterwards.
    await new Promise((r) => setTimeout(r, 200));
    expect(stopped().length).toBe(before + 1);
    const completed = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'repositories exported' && line.rows === BULK_ROWS);
    expect(completed).toEqual([]);
  });
});
