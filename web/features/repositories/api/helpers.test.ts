import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client.ts';
import { fileNameFromDisposition } from '#web/lib/downloads.ts';
import { readNdjson } from './add-repositories-batch.ts';
import { defaultExportName } from './export-repositories.ts';
import { describeCommitsError } from './get-commits.ts';

describe('describeCommitsError', () => {
  it.each([
    [new ApiError('Authentication required', 401), 'Please log in to view repository commits'],
    [new ApiError('Request timeout', 0), 'Failed to load commits: Connection timed out'],
    [new ApiError('whatever', 404), 'Failed to load commits: Repository not found in database'],
    [new ApiError('Forbidden', 403), "Failed to load commits: You don't have access to this repository"],
    [
      new ApiError('Invalid response format from server', 200),
      'Failed to load commits: Invalid response format from server',
    ],
    [
      new ApiError('Network error. Please check your connection.', 0),
      'Failed to load commits: Network error. Please check your connection.',
    ],
    [new Error('odd'), 'Failed to load commits: Invalid response format from server'],
  ])('%s → %s', (error, text) => {
    expect(describeCommitsError(error)).toBe(text);
  });
});

describe('export file name', () => {
  it('reads Content-Disposition, or falls back to repositories_YYYY-MM-DD.csv', () => {
    expect(fileNameFromDisposition('attachment; filename="repositories_2026-08-22.csv"', 'x')).toBe(
      'repositories_2026-08-22.csv',
    );
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''r%C3%A9pos.csv", 'x')).toBe('répos.csv');
    expect(fileNameFromDisposition(null, 'fallback.csv')).toBe('fallback.csv');
    expect(defaultExportName(new Date('2026-08-22T12:00:00Z'))).toBe('repositories_2026-08-22.csv');
  });
});

describe('readNdjson', () => {
  function streamOf(chunks: string[]) {
    const encoder = new TextEncoder();
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
  }

  it('joins lines split across chunks, splits chunks holding several, and reads a last line without newline', async () => {
    const lines: unknown[] = [];
    await readNdjson(streamOf(['{"a":', '1}\n{"b":2}\n\n{"c"', ':3}']), (line) => lines.push(line));
    expect(lines).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
  });

  it('rejects a line that is not JSON', async () => {
    await expect(readNdjson(streamOf(['oops\n']), () => {})).rejects.toThrow(
      'Invalid response format from server',
    );
  });
});
