import './app/first-screen-styles.ts';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { applyInitialColorScheme } from './app/color-scheme.ts';
import { hasStoredSession, preloadSignedIn } from './app/preload.ts';
import { AppProviders } from './app/providers.tsx';

applyInitialColorScheme();

// A tab that opens with a stored session fetches the signed-in shell, the list screen and the
// list's first page while GET /auth/me is checking it, not one after the other
// (docs/architecture.md#web-app). Signed out, none of it loads.
const storedSession = hasStoredSession();
if (storedSession) preloadSignedIn();
const listPrefetch = storedSession ? import('./app/prefetch-list.ts') : null;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders
      onStoredSession={(client) => {
        listPrefetch
          ?.then(({ prefetchRepositoryList }) => prefetchRepositoryList(client, window.location.hash))
          .catch(() => undefined);
      }}
    >
      <App />
    </AppProviders>
  </StrictMode>,
);
