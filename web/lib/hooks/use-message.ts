import { type ReactNode, useCallback, useEffect, useState } from 'react';

export type MessageKind = 'success' | 'error' | 'info' | 'warning';

export interface Message {
  kind: MessageKind;
  text: ReactNode;
  /** Cleared after this many milliseconds; null keeps it until replaced or dismissed. */
  clearAfterMs: number | null;
}

/**
 * The one message state of every screen (rendered by `InlineMessage`): a success, error, info or warning text
 * that may clear itself after its delay (docs/product.md#message-durations) — 1 s for "repository updated",
 * 3 s for saved, comment, version and profile messages, 5 s for password, token, webhook and export messages.
 * `clearAfterMs` is the default of every message shown; `show` can give one its own. Showing a new message
 * restarts the clock.
 */
export function useMessage(clearAfterMs: number | null = null) {
  const [message, setMessage] = useState<Message | null>(null);

  useEffect(() => {
    if (!message || message.clearAfterMs === null) return;
    const timer = setTimeout(() => setMessage(null), message.clearAfterMs);
    return () => clearTimeout(timer);
  }, [message]);

  const show = useCallback(
    (kind: MessageKind, text: ReactNode, after: number | null = clearAfterMs) =>
      setMessage({ kind, text, clearAfterMs: after }),
    [clearAfterMs],
  );
  const showSuccess = useCallback((text: ReactNode) => show('success', text), [show]);
  const showError = useCallback((text: ReactNode) => show('error', text), [show]);
  const clear = useCallback(() => setMessage(null), []);

  return { message, show, showSuccess, showError, clear };
}
