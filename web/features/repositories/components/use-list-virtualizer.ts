import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * TanStack Virtual over the window's own scrolling: only the rows near the viewport are in
 * the DOM, however many the incremental count has shown. `scrollMargin` is where the list
 * starts in the page, measured after every render (messages above it may come and go).
 */
export function useListVirtualizer(options: {
  count: number;
  estimateSize: number;
  listRef: RefObject<HTMLElement | null>;
  overscan?: number;
}) {
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const element = options.listRef.current;
    if (!element) return;
    const top = Math.round(element.getBoundingClientRect().top + window.scrollY);
    if (top !== scrollMargin) setScrollMargin(top);
  });
  return useWindowVirtualizer({
    count: options.count,
    estimateSize: () => options.estimateSize,
    overscan: options.overscan ?? 8,
    scrollMargin,
  });
}
