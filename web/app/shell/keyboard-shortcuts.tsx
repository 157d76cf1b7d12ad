import { lazy, Suspense, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useKeyboardShortcuts } from '#web/lib/keyboard.ts';

const ShortcutsHelp = lazy(() => import('./shortcuts-help.tsx'));

const GO_TO: Record<string, string> = { h: '/home', t: '/tags', s: '/stats' };
/** How long 'g' waits for its second key. */
const SEQUENCE_MS = 1_500;

/**
 * The members' global shortcuts: '/' focuses the screen's search (an element marked
 * `data-shortcut="search"`), 'g' then h/t/s navigates, '?' shows the list of shortcuts.
 * The list's own keys (j, k, Enter) live with the list.
 */
export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  // Mounted from the first '?' on, so that it closes with its transition.
  const [helpWanted, setHelpWanted] = useState(false);
  const pendingGo = useRef(0);

  useKeyboardShortcuts((key) => {
    if (Date.now() - pendingGo.current < SEQUENCE_MS) {
      pendingGo.current = 0;
      const target = GO_TO[key.toLowerCase()];
      if (target) {
        navigate(target);
        return true;
      }
    }
    if (key === 'g') {
      pendingGo.current = Date.now();
      return true;
    }
    if (key === '?') {
      setHelpOpen(true);
      setHelpWanted(true);
      return true;
    }
    if (key === '/') {
      const search = document.querySelector<HTMLElement>('[data-shortcut="search"]');
      if (!search) return false;
      search.focus();
      return true;
    }
    return false;
  });

  return (
    helpWanted && (
      <Suspense fallback={null}>
        <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />
      </Suspense>
    )
  );
}
