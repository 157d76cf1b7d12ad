import { describe, expect, it } from 'vitest';
import { INVALID_REPOSITORY_FORMAT, type RepositorySummary } from '#shared/schemas/repositories.ts';
import {
  applyResult,
  batchInputs,
  buildItems,
  countItems,
  failUnfinished,
  readLines,
  startProcessing,
  summaryText,
} from './batch-items.ts';

describe('add page lines', () => {
  it('keeps the non-empty lines, trimmed', () => {
    expect(readLines('  a/b \n\n\r\n  \nhttps://github.com/c/d\r\n')).toEqual([
      'a/b',
      'https://github.com/c/d',
    ]);
  });

  it('sends URLs as url (https:// added to bare github.com lines), owner/name as id; the rest fails locally', () => {
    const items = buildItems(['https://github.com/a/b', 'github.com/c/d', 'e/f', 'not a repo', 'g/h']);
    expect(items.map((item) => [item.input, item.batchIndex, item.status])).toEqual([
      [{ url: 'https://github.com/a/b' }, 0, 'pending'],
      [{ url: 'https://github.com/c/d' }, 1, 'pending'],
      [{ id: 'e/f' }, 2, 'pending'],
      [null, null, 'error'],
      [{ id: 'g/h' }, 3, 'pending'],
    ]);
    expect(items[3]?.error).toBe(INVALID_REPOSITORY_FORMAT);
    expect(batchInputs(items)).toEqual([
      { url: 'https://github.com/a/b' },
      { url: 'https://github.com/c/d' },
      { id: 'e/f' },
      { id: 'g/h' },
    ]);
  });
});

describe('progress (pending → processing → success or error, in order)', () => {
  const repository = { id: 'a/b' } as RepositorySummary;

  it('moves processing along as results arrive', () => {
    let items = startProcessing(buildItems(['a/b', 'bad line', 'c/d', 'e/f']));
    expect(items.map((item) => item.status)).toEqual(['processing', 'error', 'pending', 'pending']);
    items = applyResult(items, { index: 0, input: 'a/b', ok: true, status: 'added', repository });
    expect(items.map((item) => item.status)).toEqual(['success', 'error', 'processing', 'pending']);
    expect(items[0]?.repository).toBe(repository);
    items = applyResult(items, {
      index: 1,
      input: 'c/d',
      ok: false,
      status: 'failed',
      error: 'GitHub has no repository c/d.',
    });
    expect(items.map((item) => item.status)).toEqual(['success', 'error', 'error', 'processing']);
    expect(items[2]?.error).toBe('GitHub has no repository c/d.');
    expect(countItems(items)).toEqual({
      total: 4,
      succeeded: 1,
      failed: 2,
      skipped: 0,
      queued: 0,
      finished: 3,
      lastEta: null,
    });
    items = failUnfinished(items, 'Network error. Please check your connection.');
    expect(items[3]).toMatchObject({
      status: 'error',
      error: 'Network error. Please check your connection.',
    });
  });
});

describe('skipped and queued lines', () => {
  it('keeps each outcome apart, with the latest ETA of the queued ones', () => {
    let items = startProcessing(buildItems(['a/b', 'c/d', 'e/f', 'g/h']));
    const repository = { id: 'c/d' } as RepositorySummary;
    items = applyResult(items, {
      index: 1,
      input: 'c/d',
      ok: false,
      status: 'skipped',
      repository,
      error: 'c/d is already in the catalogue.',
    });
    items = applyResult(items, {
      index: 2,
      input: 'e/f',
      ok: false,
      status: 'queued',
      eta: '2026-11-24T15:00:00Z',
    });
    items = applyResult(items, {
      index: 3,
      input: 'g/h',
      ok: false,
      status: 'queued',
      eta: '2026-11-24T16:00:00Z',
    });
    expect(items.map((item) => item.status)).toEqual(['processing', 'skipped', 'queued', 'queued']);
    expect(items[1]?.repository).toBe(repository);
    expect(items[3]?.eta).toBe('2026-11-24T16:00:00Z');
    expect(countItems(items)).toMatchObject({
      skipped: 1,
      queued: 2,
      finished: 3,
      lastEta: '2026-11-24T16:00:00Z',
    });
  });
});

describe('summary', () => {
  const counts = (
    succeeded: number,
    failed: number,
    skipped = 0,
    queued = 0,
    lastEta: string | null = null,
  ) => ({
    total: succeeded + failed + skipped + queued,
    succeeded,
    failed,
    skipped,
    queued,
    finished: succeeded + failed + skipped + queued,
    lastEta,
  });

  it.each([
    [counts(3, 0), '✅ Successfully added 3 repositories!'],
    [counts(0, 3), '❌ Failed to add all 3 repositories.'],
    [counts(3, 2), '⚠️ Added 3 repositories, 2 failed.'],
    [counts(70, 0, 5), '⚠️ Added 70 repositories, 5 already in the catalogue, 0 failed.'],
    [counts(1, 1, 1), '⚠️ Added 1 repository, 1 already in the catalogue, 1 failed.'],
    [counts(0, 0, 2), '⚠️ Added 0 repositories, 2 already in the catalogue, 0 failed.'],
  ])('%o → %s', (batch, text) => {
    expect(summaryText(batch).text).toBe(text);
  });

  it('says by when the queued ones will be added, in the reader’s locale', () => {
    const text = summaryText(counts(15, 0, 0, 85, '2026-11-24T15:05:00Z'), 'en-GB').text;
    expect(text).toMatch(/^⚠️ Added 15 repositories, 85 queued \(done by \d{2}:\d{2}\), 0 failed\.$/);
  });
});
