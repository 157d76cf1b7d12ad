import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import {
  addRepositoriesBatch,
  type ImportRequest,
  importRepositories,
} from '../api/add-repositories-batch.ts';
import { repositoryKeys } from '../api/query-keys.ts';
import {
  appendResult,
  applyResult,
  type BatchItem,
  batchInputs,
  buildItems,
  countItems,
  EMPTY_INPUT_MESSAGE,
  failUnfinished,
  readLines,
  startProcessing,
  summaryText,
} from './batch-items.ts';

/** What every repository of a run gets: the shared tags, and whether Slack hears of it. */
export interface BatchOptions {
  tags: string[];
  notify: boolean;
}

type Phase = 'idle' | 'running' | 'finished';

const failedLines = (items: readonly BatchItem[]) =>
  items.filter((item) => item.status === 'error').map((item) => item.line);

const failedText = (error: unknown) => `❌ Batch add failed: ${describeError(error, 'Request failed')}`;

/**
 * One run of the add page (docs/product.md#add-repositories): its items as the streamed
 * results arrive, whether it is running or finished, and the summary message. The catalogue
 * queries are refreshed once a run that reached the server ends.
 */
export function useBatchRun() {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<BatchItem[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const { message, show, clear } = useMessage();
  const counts = useMemo(() => countItems(items), [items]);

  const shared = ({ tags, notify }: BatchOptions) => ({
    tags: tags.join(',').trim() || undefined,
    notify_slack: notify,
  });

  const begin = (first: BatchItem[]) => {
    setItems(first);
    setPhase('running');
  };

  const end = (reachedServer: boolean) => {
    setPhase('finished');
    if (reachedServer) void queryClient.invalidateQueries({ queryKey: repositoryKeys.all });
  };

  /**
   * The textarea: one item per non-empty line, invalid lines failing locally, the rest in
   * one streamed batch. Resolves with the lines to leave in the textarea for another try: the
   * failed ones only (added, skipped and queued lines are done), or null when the run could not
   * tell (nothing entered).
   */
  const runLines = async (text: string, options: BatchOptions): Promise<string[] | null> => {
    clear();
    const lines = readLines(text);
    if (lines.length === 0) {
      setItems([]);
      setPhase('idle');
      show('error', EMPTY_INPUT_MESSAGE);
      return null;
    }
    let current = startProcessing(buildItems(lines));
    begin(current);
    const inputs = batchInputs(current);
    try {
      if (inputs.length > 0) {
        await addRepositoriesBatch({ items: inputs, ...shared(options) }, (result) => {
          current = applyResult(current, result);
          setItems(current);
        });
      }
      const summary = summaryText(countItems(current));
      show(summary.kind, summary.text);
      return failedLines(current);
    } catch (error) {
      current = failUnfinished(current, describeError(error, 'Request failed'));
      setItems(current);
      show('error', failedText(error));
      return failedLines(current);
    } finally {
      end(inputs.length > 0);
    }
  };

  /** Import a user's stars or an owner's repositories: the items arrive with their results. */
  const runImport = async (
    request: Pick<ImportRequest, 'source' | 'login'>,
    options: BatchOptions,
  ): Promise<void> => {
    clear();
    let current: BatchItem[] = [];
    begin(current);
    try {
      await importRepositories({ ...request, ...shared(options) }, (result) => {
        current = appendResult(current, result);
        setItems(current);
      });
      if (current.length === 0) {
        show('warning', `⚠️ ${request.login} has no repositories to import.`);
      } else {
        const summary = summaryText(countItems(current));
        show(summary.kind, summary.text);
      }
    } catch (error) {
      show('error', failedText(error));
    } finally {
      end(true);
    }
  };

  /** Clear: no items, no message. */
  const reset = () => {
    setItems([]);
    setPhase('idle');
    clear();
  };

  return {
    items,
    counts,
    running: phase === 'running',
    finished: phase === 'finished',
    message,
    clearMessage: clear,
    runLines,
    runImport,
    reset,
  };
}

export type BatchRun = ReturnType<typeof useBatchRun>;
