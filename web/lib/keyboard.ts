import { useEffect, useRef } from 'react';

/** A field the member is typing in: shortcuts never fire there. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
}

/**
 * Calls `onKey` with each plain key press (no Ctrl, Alt or Meta; Shift allowed, so '?' works)
 * outside text fields and open dialogs (docs/product.md#keyboard-shortcuts). Mantine's
 * useHotkeys has no key sequences ('g' then 'h'), so the screens share this one listener shape.
 * Return true from `onKey` when the key was used, to stop the browser's own action.
 */
export function useKeyboardShortcuts(onKey: (key: string, event: KeyboardEvent) => boolean, enabled = true) {
  const handler = useRef(onKey);
  handler.current = onKey;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing)
        return;
      if (isTypingTarget(event.target)) return;
      // A modal has the keyboard: its own keys only.
      if (event.target instanceof Element && event.target.closest('[role="dialog"]')) return;
      if (handler.current(event.key, event)) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}
