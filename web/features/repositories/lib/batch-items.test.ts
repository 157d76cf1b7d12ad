import { describe, expect, it } from 'vitest';
import {
  INVALID_REPOSITORY_FORMAT,
  type RepositorySummary,
} from '../../../../shared/schemas/repositories.ts';
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
    items = applyResult(items, { index: 0, input: 'a/b', ok: true, repository });
    expect(items.map((item) => item.status)).toEqual(['success', 'error', 'processing', 'pending']);
    expect(items[0]?.repository).toBe(repository);
    items = applyResult(items, {
      index: 1,
      input: 'c/d',
      ok: false,
      error: 'c/d is already in the catalogue.',
    });
    expect(items.map((item) => item.status)).toEqual(['success', 'error', 'error', 'processing']);
    expect(items[2]?.error).toBe('c/d is already in the catalogue.');
    expect(countItems(items)).toEqual({ total: 4, succeeded: 1, failed: 2, finished: 3 });
    items = failUnfinished(items, 'Network error. Please check your connection.');
    expect(items[3]).toMatchObject({
      status: 'error',
      error: 'Network error. Please check your connection.',
    });
  });
});

describe('summary', () => {
  it.each([
    [{ total: 3, succeeded: 3, failed: 0, finished: 3 }, '✅ Successfully added 3 repositories!'],
    [{ total: 3, succeeded: 0, failed: 3, finished: 3 }, '❌ Failed to add all 3 repositories.'],
    [{ total: 5, succeeded: 3, failed: 2, finished: 5 }, '⚠️ Added 3 repositories, 2 failed.'],
  ])('%o → %s', (counts, text) => {
    expect(summaryText(counts).text).toBe(text);
  });
});
