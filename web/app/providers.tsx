import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { AuthProvider } from '#web/lib/auth/auth-context.tsx';
import { NotificationsHost } from './notifications-host.tsx';
import { createQueryClient } from './query-client.ts';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

export interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client (no retries, no cache between tests). */
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals, so tests see content at once. */
  env?: 'default' | 'test';
  /** Called as the stored session is being checked (main.tsx prefetches the list then). */
  onStoredSession?: (client: QueryClient) => void;
}

export function AppProviders({ children, queryClient, env = 'default', onStoredSession }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      {/* Inside Mantine so the fallback is styled; around everything else it can catch. */}
      <ErrorBoundary level="app">
        <NotificationsHost />
        <QueryClientProvider client={client}>
          <AuthProvider onStoredSession={onStoredSession && (() => onStoredSession(client))}>
            {children}
          </AuthProvider>
        </QueryClientProvider>
      </ErrorBoundary>
    </MantineProvider>
  );
}
