import { describe, expect, it } from 'vitest';
import type { RepositorySummary } from '#shared/schemas/repositories.ts';
import { buildListRow } from '../../../test/helpers/repository-row.ts';
import type { RepositoryListRow } from '../../db/schema.ts';
import { presentSummary } from '../../repository/repository-presenter.ts';
import { csvRecord, csvRow, streamCsv } from './csv-export.ts';

/**
 * The export writes each record straight from the list row (docs/decisions.md, "CSV export"):
 * these pin its bytes, and check them cell for cell against the presented repository as the
 * export wrote it before (presentSummary, then a cell per column, formula-escaped).
 */

/** The escape as the export applied it to each presented cell before it wrote records itself. */
function escapeFormula(value: string | number): string | number {
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r\0＝＋－＠]/.test(value) ? `'${value}` : value;
}
const base: RepositoryListRow = buildListRow('acme/widget', 1, {
  user_id: 1,
  stars: 0,
  commits: 0,
  contributors: 0,
  last_synced: null,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

const rows: RepositoryListRow[] = [
  base,
  {
    ...base,
    id: 2,
    full_name: 'a/b',
    name: '=cmd',
    description: 'He said "hi", then\r\nleft',
    license: 'MIT',
    topics: 'cli,go',
    tags: '+1,-2,@x',
    notes: '\tTab',
    stars: 12,
    forks: 3,
    issues: 4,
    commits: 5,
    contributors: 500,
    contributors_capped: 1,
    language: 'Go',
    archived: 1,
    private: 1,
    gone: 1,
    last_commit: '2026-10-01T00:00:00Z',
    last_synced: '2026-11-02T00:00:00.000Z',
    stars_7d: -3,
    stars_30d: 7,
    health_score: 62,
    health_grade: 'watch',
    advisories_critical: 1,
    advisories_high: 0,
    advisories_medium: 2,
    advisories_low: 0,
    advisories_unknown: 3,
    comment_count: 2,
    version_count: 9,
    decision_status: 'adopt',
    decision_quadrant: 'tools',
  },
  {
    ...base,
    id: 3,
    full_name: 'c/d',
    name: 'd',
    description: '＝full-width',
    license: 'Apache-2.0',
    topics: 'a\nb',
    tags: '\rcr',
    notes: '－x＋y＠z',
    contributors: 7,
    contributors_pending: 1,
    stars_7d: 0,
    stars_30d: 0,
  },
  {
    ...base,
    id: 4,
    full_name: 'e/f',
    name: 'ünïcode, 名前',
    description: '',
    topics: "'quoted'",
    tags: '-',
    notes: '@',
    contributors: 42,
    language: '',
  },
];

/**
 * The file as the export wrote it before records were written from the row (commit 9603c3b),
 * with the health, advisory and decision columns since.
 */
const EXPECTED =
  'id,name,description,url,language,license,topics,tags,notes,stars,forks,open_issues,commits,contributors,stars_7d,stars_30d,health_score,health_grade,advisories_critical,advisories_high,advisories_medium,advisories_low,advisories_unknown,status,quadrant,last_commit,last_synced,archived,private,gone_from_github,comments,versions,added_at\r\n' +
  'acme/widget,widget,,https://github.com/acme/widget,,No License,,,,0,0,0,0,0,,,,unknown,0,0,0,0,0,,,,,no,no,no,0,0,2026-11-01T00:00:00.000Z\r\n' +
  'a/b,\'=cmd,"He said ""hi"", then\r\nleft",https://github.com/acme/widget,Go,MIT,"cli,go","\'+1,-2,@x",\'\tTab,12,3,4,5,500+,-3,7,62,watch,1,0,2,0,3,adopt,tools,2026-10-01T00:00:00Z,2026-11-02T00:00:00.000Z,yes,yes,yes,2,9,2026-11-01T00:00:00.000Z\r\n' +
  'c/d,d,\'＝full-width,https://github.com/acme/widget,,Apache-2.0,"a\nb","\'\rcr",\'－x＋y＠z,0,0,0,0,,0,0,,unknown,0,0,0,0,0,,,,,no,no,no,0,0,2026-11-01T00:00:00.000Z\r\n' +
  "e/f,\"ünïcode, 名前\",,https://github.com/acme/widget,,No License,'quoted','-,'@,0,0,0,0,42,,,,unknown,0,0,0,0,0,,,,,no,no,no,0,0,2026-11-01T00:00:00.000Z\r\n";

/** The columns as the export wrote them from the presented repository before. */
const PRESENTED: ((r: RepositorySummary) => string | number)[] = [
  (r) => r.id,
  (r) => r.name,
  (r) => r.description ?? '',
  (r) => r.url,
  (r) => r.language ?? '',
  (r) => r.license || 'No License',
  (r) => r.topics,
  (r) => r.tags,
  (r) => r.notes,
  (r) => r.stars,
  (r) => r.forks,
  (r) => r.issues,
  (r) => r.commits,
  (r) => r.contributors ?? '',
  (r) => r.growth.stars_7d ?? '',
  (r) => r.growth.stars_30d ?? '',
  (r) => r.health.score ?? '',
  (r) => r.health.grade,
  (r) => r.open_advisories.critical,
  (r) => r.open_advisories.high,
  (r) => r.open_advisories.medium,
  (r) => r.open_advisories.low,
  (r) => r.open_advisories.unknown,
  (r) => r.decision?.status ?? '',
  (r) => r.decision?.quadrant ?? '',
  (r) => r.last_commit ?? '',
  (r) => r.last_synced ?? '',
  (r) => (r.archived ? 'yes' : 'no'),
  (r) => (r.private ? 'yes' : 'no'),
  (r) => (r.gone ? 'yes' : 'no'),
  (r) => r.comment_count,
  (r) => r.version_count,
  (r) => r.created_at,
];

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the CSV export', () => {
  it('writes the same bytes as before, formulas escaped', async () => {
    expect(await text(streamCsv([rows]))).toBe(EXPECTED);
  });

  it('writes each record as the presented repository reads, cell for cell', () => {
    for (const row of rows) {
      const summary = presentSummary(row);
      expect(csvRow(row)).toBe(csvRecord(PRESENTED.map((value) => escapeFormula(value(summary)))));
    }
  });

  it('writes every number as String() does: zero, powers of ten, negative, the largest safe, a fraction', () => {
    const values = [
      0,
      1,
      9,
      10,
      99,
      100,
      1000,
      12_345,
      2 ** 31,
      Number.MAX_SAFE_INTEGER,
      -1,
      -10,
      -2_000,
      1.5,
    ];
    for (const value of values) {
      const row = { ...(rows[0] as RepositoryListRow), stars: value, stars_7d: -value, comment_count: value };
      const cells = csvRow(row).split(',');
      expect([cells[9], cells[14], cells[30]], String(value)).toEqual([
        String(value),
        String(-value),
        String(value),
      ]);
    }
  });

  it('writes the same bytes however the rows are batched, and reports the rows sent', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => ({
      ...(rows[i % rows.length] as RepositoryListRow),
      id: i,
    }));
    const reports: [number, boolean][] = [];
    const whole = await text(streamCsv([many], (count, complete) => reports.push([count, complete])));
    const single = await text(
      streamCsv(
        many.map((row) => [row]),
        (count, complete) => reports.push([count, complete]),
      ),
    );
    expect(single).toBe(whole);
    expect(whole.startsWith(EXPECTED.slice(0, EXPECTED.indexOf('\r\n') + 2))).toBe(true);
    expect(reports).toEqual([
      [1234, true],
      [1234, true],
    ]);
  });

  it("turns COPY's LF record ends into CRLF however its chunks are cut, and keeps line breaks inside quoted cells", async () => {
    // As PostgreSQL's COPY writes CSV (copy-export.ts): records end in LF, and a cell with a
    // comma, quote, CR or LF is quoted with its quotes doubled.
    const copied = [
      'a,"line one\nline two",3\n',
      '"say ""hi""\r\n, then go",,\n',
      ',x,""\n',
      'plain,"ends with LF\n",\n',
    ].join('');
    const expected = copied.replaceAll(/\n(?=(?:[^"]*"[^"]*")*[^"]*$)/g, '\r\n');
    const bytes = Buffer.from(copied);
    const header = (await text(streamCsv([]))).length;
    const reports: [number, boolean][] = [];
    const report = (count: number, complete: boolean) => reports.push([count, complete]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      expect((await text(streamCsv([{ copied: chunks }], report))).slice(header), `cut at ${cut}`).toBe(
        expected,
      );
    }
    const byByte = Array.from(bytes, (byte) => Buffer.from([byte]));
    expect((await text(streamCsv([{ copied: byByte }, { copied: [] }], report))).slice(header)).toBe(
      expected,
    );
    expect(new Set(reports.map(String))).toEqual(new Set(['4,true']));
  });
});
