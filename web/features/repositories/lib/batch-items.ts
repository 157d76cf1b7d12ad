/**
 * The add page's items (docs/product.md#add-repositories) as pure
 * functions: one item per non-empty line, invalid lines failing locally, and the summary.
 */
import { formatTime } from '#shared/format.ts';
import { parseAddLine } from '#shared/repository-input.ts';
import {
  type BatchResultItem,
  INVALID_REPOSITORY_FORMAT,
  type RepositorySummary,
} from '#shared/schemas/repositories.ts';
import type { BatchInput } from '../api/add-repositories-batch.ts';

/**
 * 'success' is the server's `added`, 'skipped' already in the catalogue, 'queued' to be added in
 * the background by `eta`, 'error' failed (docs/product.md#batch-statuses).
 */
export type BatchItemStatus = 'pending' | 'processing' | 'success' | 'skipped' | 'queued' | 'error';

export interface BatchItem {
  /** Position among the entered lines (lines may repeat, so this is the identity). */
  position: number;
  /** The entered line, as shown. */
  line: string;
  /** What is sent, or null for a line that failed locally. */
  input: BatchInput | null;
  /** Position in the batch call's items, or null. */
  batchIndex: number | null;
  status: BatchItemStatus;
  error?: string;
  repository?: RepositorySummary;
  /** When a queued item will be added (ISO 8601). */
  eta?: string;
}

export const EMPTY_INPUT_MESSAGE = '❌ Please enter at least one repository.';

/** The non-empty lines, trimmed. */
export function readLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** A URL (with https:// added to bare github.com lines) as url, owner/name as id, else an error. */
export function buildItems(lines: readonly string[]): BatchItem[] {
  let batchIndex = 0;
  return lines.map((line, position) => {
    const parsed = parseAddLine(line);
    if (parsed.kind === 'invalid') {
      return {
        position,
        line,
        input: null,
        batchIndex: null,
        status: 'error',
        error: INVALID_REPOSITORY_FORMAT,
      };
    }
    const input: BatchInput = parsed.kind === 'url' ? { url: parsed.value } : { id: parsed.value };
    return { position, line, input, batchIndex: batchIndex++, status: 'pending' };
  });
}

/** The batch's items in order (index i is batchIndex i). */
export function batchInputs(items: readonly BatchItem[]): BatchInput[] {
  return items.flatMap((item) => (item.input ? [item.input] : []));
}

/**
 * One streamed result applied: that item succeeds or fails, and the next pending one becomes
 * 'processing' (the server adds them one at a time, in order).
 */
export function applyResult(items: readonly BatchItem[], result: BatchResultItem): BatchItem[] {
  const next = items.slice();
  const at = next.findIndex((item) => item.batchIndex === result.index);
  const target = next[at];
  if (!target) return next;
  next[at] = { ...target, ...outcomeOf(result) };
  const following = next.findIndex((item, index) => index > at && item.status === 'pending');
  const pending = next[following];
  if (pending) next[following] = { ...pending, status: 'processing' };
  return next;
}

/**
 * An import's result: its items aren't known until the server lists them, so each streamed
 * result adds its own finished item.
 */
export function appendResult(items: readonly BatchItem[], result: BatchResultItem): BatchItem[] {
  const item: BatchItem = {
    position: result.index,
    line: result.input,
    input: { id: result.input },
    batchIndex: result.index,
    ...outcomeOf(result),
  };
  return [...items, item];
}

/** What a server result makes of an item: its status and what goes with it. */
function outcomeOf(result: BatchResultItem): Pick<BatchItem, 'status' | 'repository' | 'error' | 'eta'> {
  switch (result.status) {
    case 'added':
      return { status: 'success', repository: result.repository, error: undefined, eta: undefined };
    case 'skipped':
      return { status: 'skipped', repository: result.repository, error: result.error, eta: undefined };
    case 'queued':
      return { status: 'queued', repository: undefined, error: undefined, eta: result.eta };
    default:
      return {
        status: 'error',
        repository: undefined,
        error: result.error ?? 'Request failed',
        eta: undefined,
      };
  }
}

/** The first pending item starts processing. */
export function startProcessing(items: readonly BatchItem[]): BatchItem[] {
  const first = items.findIndex((item) => item.status === 'pending');
  if (first === -1) return items.slice();
  const next = items.slice();
  next[first] = { ...(next[first] as BatchItem), status: 'processing' };
  return next;
}

/** A failed call: whatever had not finished fails with the reason. */
export function failUnfinished(items: readonly BatchItem[], reason: string): BatchItem[] {
  return items.map((item) =>
    item.status === 'pending' || item.status === 'processing'
      ? { ...item, status: 'error', error: reason }
      : item,
  );
}

export interface BatchCounts {
  total: number;
  succeeded: number;
  failed: number;
  skipped: number;
  queued: number;
  finished: number;
  /** The latest ETA of the queued items, or null. */
  lastEta: string | null;
}

export function countItems(items: readonly BatchItem[]): BatchCounts {
  const counts = { succeeded: 0, failed: 0, skipped: 0, queued: 0 };
  let lastEta: string | null = null;
  for (const item of items) {
    if (item.status === 'success') counts.succeeded += 1;
    else if (item.status === 'error') counts.failed += 1;
    else if (item.status === 'skipped') counts.skipped += 1;
    else if (item.status === 'queued') {
      counts.queued += 1;
      if (item.eta && (lastEta === null || item.eta > lastEta)) lastEta = item.eta;
    }
  }
  const finished = counts.succeeded + counts.failed + counts.skipped + counts.queued;
  return { total: items.length, ...counts, finished, lastEta };
}

const repositories = (count: number) => `${count} ${count === 1 ? 'repository' : 'repositories'}`;

/**
 * The summary texts: SPEC's three when nothing was skipped or queued, else one warning that
 * names every outcome (docs/product.md#batch-statuses).
 */
export function summaryText(
  { total, succeeded, failed, skipped, queued, lastEta }: BatchCounts,
  locale?: string,
): { kind: 'success' | 'error' | 'warning'; text: string } {
  if (skipped === 0 && queued === 0) {
    if (succeeded === total) return { kind: 'success', text: `✅ Successfully added ${total} repositories!` };
    if (succeeded === 0) return { kind: 'error', text: `❌ Failed to add all ${total} repositories.` };
    return { kind: 'warning', text: `⚠️ Added ${succeeded} repositories, ${failed} failed.` };
  }
  const parts = [`⚠️ Added ${repositories(succeeded)}`];
  if (skipped > 0) parts.push(`${skipped} already in the catalogue`);
  if (queued > 0)
    parts.push(
      lastEta ? `${queued} queued (done by ${formatTime(lastEta, { locale })})` : `${queued} queued`,
    );
  parts.push(`${failed} failed.`);
  return { kind: 'warning', text: parts.join(', ') };
}
