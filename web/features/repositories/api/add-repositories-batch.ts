import {
  BATCH_MAX_ITEMS,
  type BatchResultItem,
  batchDoneLineSchema,
  batchResponseSchema,
  batchResultItemSchema,
} from '#shared/schemas/repositories.ts';
import { ApiError, apiFetch } from '#web/lib/api-client.ts';

export type BatchInput = { url: string } | { id: string };

export interface BatchRequest {
  items: BatchInput[];
  /** Comma-joined; sent only when not empty. */
  tags?: string;
  notify_slack: boolean;
}

export interface BatchSummary {
  succeeded: number;
  failed: number;
}

export const STREAM_CLOSED_MESSAGE = 'The connection closed before every repository was processed.';

/**
 * Reads an NDJSON body line by line as it arrives, calling `onLine` with each parsed line.
 * A line may be split across chunks, and several may arrive in one.
 */
export async function readNdjson(body: ReadableStream<Uint8Array>, onLine: (line: unknown) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const flush = (text: string) => {
    const trimmed = text.trim();
    if (!trimmed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      throw new ApiError('Invalid response format from server', 200);
    }
    onLine(parsed);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      flush(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  }
  flush(buffered + decoder.decode());
}

/**
 * POST /repositories/batch with `Accept: application/x-ndjson` (docs/product.md#batch-and-import): the server
 * adds the items one at a time, in order, and streams one line per item as it finishes (its `status`:
 * added, skipped, queued with an `eta`, or failed), then `{done, succeeded, failed, skipped, queued}`.
 * `onItem` sees each item's result as it arrives; `index` is the position in `items`.
 * More than BATCH_MAX_ITEMS items go in consecutive calls.
 */
export async function addRepositoriesBatch(
  request: BatchRequest,
  onItem: (item: BatchResultItem) => void,
  signal?: AbortSignal,
): Promise<BatchSummary> {
  const total: BatchSummary = { succeeded: 0, failed: 0 };
  for (let offset = 0; offset < request.items.length; offset += BATCH_MAX_ITEMS) {
    const items = request.items.slice(offset, offset + BATCH_MAX_ITEMS);
    const shifted = (item: BatchResultItem) => onItem({ ...item, index: item.index + offset });
    const summary = await sendBatch({ ...request, items }, shifted, signal);
    total.succeeded += summary.succeeded;
    total.failed += summary.failed;
  }
  return total;
}

function sendBatch(
  request: BatchRequest,
  onItem: (item: BatchResultItem) => void,
  signal: AbortSignal | undefined,
) {
  const body = {
    items: request.items,
    ...(request.tags ? { tags: request.tags } : {}),
    notify_slack: request.notify_slack,
  };
  return streamBatch('/repositories/batch', body, onItem, signal);
}

export interface ImportRequest {
  source: 'starred' | 'owner';
  login: string;
  tags?: string;
  notify_slack: boolean;
}

/**
 * POST /repositories/import: the server lists a user's stars, or a user's or organisation's
 * repositories, then adds them like a batch, streaming the same lines.
 */
export function importRepositories(
  request: ImportRequest,
  onItem: (item: BatchResultItem) => void,
  signal?: AbortSignal,
): Promise<BatchSummary> {
  const { tags, ...rest } = request;
  return streamBatch('/repositories/import', { ...rest, ...(tags ? { tags } : {}) }, onItem, signal);
}

async function streamBatch(
  path: string,
  body: object,
  onItem: (item: BatchResultItem) => void,
  signal: AbortSignal | undefined,
): Promise<BatchSummary> {
  const response = await apiFetch(path, {
    method: 'POST',
    headers: { Accept: 'application/x-ndjson' },
    body,
    signal,
  });

  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('ndjson') || !response.body) {
    // A server (or proxy) that answered the whole batch at once.
    const parsed = batchResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ApiError('Invalid response format from server', response.status);
    for (const item of parsed.data.results) onItem(item);
    return { succeeded: parsed.data.succeeded, failed: parsed.data.failed };
  }

  let summary: BatchSummary | null = null;
  await readNdjson(response.body, (line) => {
    const done = batchDoneLineSchema.safeParse(line);
    if (done.success) {
      summary = { succeeded: done.data.succeeded, failed: done.data.failed };
      return;
    }
    const item = batchResultItemSchema.safeParse(line);
    if (!item.success) throw new ApiError('Invalid response format from server', response.status);
    onItem(item.data);
  });
  if (summary === null) throw new ApiError(STREAM_CLOSED_MESSAGE, 0);
  return summary;
}
