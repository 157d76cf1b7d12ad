import { useCallback, useEffect, useState } from 'react';

export interface TimedMessage {
  kind: 'success' | 'error';
  text: string;
}

/**
 * A success or error message that clears itself after `clearAfterMs` (SPEC §9: 3 s for the
 * profile, 5 s for password, token and webhook messages). Showing a new one restarts the clock.
 */
export function useTimedMessage(clearAfterMs: number) {
  const [message, setMessage] = useState<TimedMessage | null>(null);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), clearAfterMs);
    return () => clearTimeout(timer);
  }, [message, clearAfterMs]);

  const showSuccess = useCallback((text: string) => setMessage({ kind: 'success', text }), []);
  const showError = useCallback((text: string) => setMessage({ kind: 'error', text }), []);
  const clear = useCallback(() => setMessage(null), []);

  return { message, showSuccess, showError, clear };
}
