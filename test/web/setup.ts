import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { WAIT_CEILING_MS } from '../helpers/wait-ceiling.ts';
import { takeWholeCatalogueRequests } from './catalogue-guard.ts';
import { resetRenderState } from './render.tsx';

// `findBy*` and `waitFor` wait up to 20 s instead of 1 s: on a busy machine a screen takes
// several times longer to settle, and a higher ceiling costs nothing when the test passes
// (vitest.config.ts keeps the tests' own time-out above it). A test sets its own `timeout`
// only for work that takes longer, never a shorter one.
configure({ asyncUtilTimeout: WAIT_CEILING_MS });

// Vitest runs without globals, so Testing Library can't register its own cleanup.
afterEach(() => {
  cleanup();
  resetRenderState();
  // Mantine's notifications live in a module-level store: one test's must not reach the next.
  notifications.clean();
  localStorage.clear();
  sessionStorage.clear();
  window.location.hash = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// No screen downloads the whole catalogue: an unpaged list call fails the test that made it.
afterEach(() => {
  const unpaged = takeWholeCatalogueRequests();
  if (unpaged.length > 0) {
    throw new Error(
      `Requested the whole catalogue without paging parameters (${unpaged.length}×): ${[...new Set(unpaged)].join(', ')}`,
    );
  }
});

// happy-dom has no FontFaceSet; Mantine's auto-growing Textarea waits on `document.fonts.ready`.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { ready: Promise.resolve(), addEventListener() {}, removeEventListener() {} },
  });
}
