import { useCallback, useEffect, useState } from 'react';

export interface FlashMessage {
  kind: 'success' | 'error' | 'info' | 'warning';
  text: string;
  /** Cleared after this many milliseconds; null keeps it until replaced or dismissed. */
  clearAfterMs: number | null;
}

/**
 * A message that may clear itself, each with its own delay (SPEC §9: 1 s for "repository
 * updated", 3 s for saved, comment and version messages). Showing a new one restarts the clock.
 */
export function useFlashMessage() {
  const [message, setMessage] = useState<FlashMessage | null>(null);

  useEffect(() => {
    if (!message || message.clearAfterMs === null) return;
    const timer = setTimeout(() => setMessage(null), message.clearAfterMs);
    return () => clearTimeout(timer);
  }, [message]);

  const show = useCallback(
    (kind: FlashMessage['kind'], text: string, clearAfterMs: number | null = null) =>
      setMessage({ kind, text, clearAfterMs }),
    [],
  );
  const clear = useCallback(() => setMessage(null), []);
  return { message, show, clear };
}
