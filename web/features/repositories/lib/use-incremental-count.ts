import { useCallback, useEffect, useRef, useState } from 'react';
import {
  LIST_PAGE_SIZE,
  SCROLL_AUTOFILL_MAX,
  SCROLL_DEBOUNCE_MS,
  SCROLL_SIMULATED_DELAY_MS,
  SCROLL_TRIGGER_PX,
} from '#shared/constants.ts';

export interface IncrementalCount {
  /** How many rows to show: starts at 10, grows by 10. */
  count: number;
  loadingMore: boolean;
  hasMore: boolean;
  /** Put on an element right after the last row. */
  sentinelRef: (element: HTMLElement | null) => void;
  /** Shows the next 10 at once (the keyboard-friendly "Show more" button). */
  showMore: () => void;
}

/**
 * The incremental display over the `total` rows loaded so far (the list's pages of 50 arrive
 * as it goes): 10 rows, then 10 more whenever the end of the list comes
 * within 200 px of the bottom of the window (checked 400 ms after scrolling stops, shown after
 * a 300 ms pause). When the rows don't fill the window, more are added by themselves, at most
 * 20 times in a row. `resetKey` (the search, filters and sort) starts again at 10.
 */
export function useIncrementalCount(total: number, resetKey: string): IncrementalCount {
  const [state, setState] = useState({ count: LIST_PAGE_SIZE, resetKey });
  const [loadingMore, setLoadingMore] = useState(false);
  const sentinel = useRef<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const autofills = useRef(0);

  // A new search or sort starts from the first page (adjusting state while rendering, as React
  // recommends, so no frame shows the old count).
  let count = state.count;
  if (state.resetKey !== resetKey) {
    count = LIST_PAGE_SIZE;
    setState({ count, resetKey });
  }
  const hasMore = count < total;

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setLoadingMore(false);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search cancels a pending load
  useEffect(() => {
    autofills.current = 0;
    cancel();
  }, [resetKey, cancel]);

  useEffect(() => () => cancel(), [cancel]);

  const loadMore = useCallback(() => {
    if (timer.current) return;
    setLoadingMore(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setLoadingMore(false);
      setState((current) => ({ ...current, count: current.count + LIST_PAGE_SIZE }));
    }, SCROLL_SIMULATED_DELAY_MS);
  }, []);

  const showMore = useCallback(() => {
    cancel();
    setState((current) => ({ ...current, count: current.count + LIST_PAGE_SIZE }));
  }, [cancel]);

  const nearBottom = useCallback(() => {
    const element = sentinel.current;
    if (!element) return false;
    return element.getBoundingClientRect().top - window.innerHeight <= SCROLL_TRIGGER_PX;
  }, []);

  // Scrolling: checked once the scrolling has paused for 400 ms.
  useEffect(() => {
    if (!hasMore) return;
    let debounce: ReturnType<typeof setTimeout> | null = null;
    const onScroll = () => {
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(() => {
        autofills.current = 0;
        if (nearBottom()) loadMore();
      }, SCROLL_DEBOUNCE_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      if (debounce) clearTimeout(debounce);
    };
  }, [hasMore, nearBottom, loadMore]);

  // Auto-fill: a window the rows don't fill has nothing to scroll, so more rows come by themselves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-checked after every page
  useEffect(() => {
    if (!hasMore || loadingMore || autofills.current >= SCROLL_AUTOFILL_MAX) return;
    const frame = requestAnimationFrame(() => {
      if (nearBottom()) {
        autofills.current += 1;
        loadMore();
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [count, hasMore, loadingMore, nearBottom, loadMore]);

  const sentinelRef = useCallback((element: HTMLElement | null) => {
    sentinel.current = element;
  }, []);

  return { count: Math.min(count, total), loadingMore, hasMore, sentinelRef, showMore };
}
