import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { applyInitialColorScheme } from './app/color-scheme.ts';
import { AppProviders } from './app/providers.tsx';
import { createAppRouter } from './app/router.ts';

applyInitialColorScheme();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <App router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
