import { Alert, Button, Code, Collapse, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh, IconWifiOff } from '@tabler/icons-react';
import { Component, type ErrorInfo, type ReactNode, useId, useState } from 'react';

/** A short id the user can quote to an admin; the same id is in the console log. */
export function createErrorId(): string {
  const bytes = new Uint8Array(4);
  crypto.getRandomValues(bytes);
  return `ERR-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase()}`;
}

export function logError(errorId: string, error: unknown, componentStack?: string | null): void {
  console.error(`[${errorId}] Unhandled error in the interface`, error, componentStack ?? '');
}

export interface ErrorFallbackProps {
  error: unknown;
  errorId: string;
  onRetry: () => void;
}

function describe(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message || error.name, stack: error.stack ?? null };
  return { message: String(error), stack: null };
}

/**
 * A screen's code could not be downloaded: offline, or the app was upgraded since the page was
 * opened and the old chunk is gone. Browsers word it differently; Vite's preload helper says
 * 'Unable to preload CSS' for a stylesheet.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk \S+ failed/i.test(
    error.message,
  );
}

export const CHUNK_LOAD_TITLE = "This screen couldn't be loaded";

/** The network's fault, not the app's: no error id, just what to do — reload. */
function ChunkLoadFallback() {
  return (
    <Container size="sm" py="xl" role="alert">
      <Stack gap="md">
        <Group gap="sm">
          <IconWifiOff size={32} color="var(--mantine-color-yellow-filled)" aria-hidden />
          <Title order={2}>{CHUNK_LOAD_TITLE}</Title>
        </Group>
        <Text>
          Its code didn't download. You may be offline, or the app was updated since you opened this page.
          Check your connection, then reload.
        </Text>
        <Group>
          <Button
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => window.location.reload()}
          >
            Reload
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}

export function ErrorFallback(props: ErrorFallbackProps) {
  return isChunkLoadError(props.error) ? <ChunkLoadFallback /> : <UnexpectedErrorFallback {...props} />;
}

function UnexpectedErrorFallback({ error, errorId, onRetry }: ErrorFallbackProps) {
  const [showDetails, setShowDetails] = useState(false);
  const detailsId = useId();
  const { message, stack } = describe(error);

  return (
    <Container size="sm" py="xl" role="alert">
      <Stack gap="md">
        <Group gap="sm">
          <IconAlertTriangle size={32} color="var(--mantine-color-red-filled)" aria-hidden />
          <Title order={2}>Something went wrong</Title>
        </Group>
        <Text>
          An unexpected error stopped this part of the page. Your data is safe; try again, and if the problem
          persists, contact your administrator.
        </Text>
        <Text>
          Error ID:{' '}
          <Code fz="sm" data-testid="error-id">
            {errorId}
          </Code>
        </Text>
        <Group gap="sm">
          <Button leftSection={<IconRefresh size={16} aria-hidden />} onClick={onRetry}>
            Try Again
          </Button>
          <Button
            variant="default"
            aria-expanded={showDetails}
            aria-controls={detailsId}
            onClick={() => setShowDetails((shown) => !shown)}
          >
            {showDetails ? 'Hide Details' : 'Show Details'}
          </Button>
        </Group>
        <Collapse expanded={showDetails} id={detailsId}>
          {showDetails && (
            <Code block data-testid="error-details">
              {stack?.includes(message) ? stack : [message, stack].filter(Boolean).join('\n')}
            </Code>
          )}
        </Collapse>
        <Alert variant="light" color="gray" title="What you can do">
          <List size="sm" spacing={4}>
            <List.Item>Refresh the page.</List.Item>
            <List.Item>Clear your browser cache and sign in again.</List.Item>
            <List.Item>
              If it keeps happening, contact your administrator and quote the error ID {errorId}.
            </List.Item>
          </List>
        </Alert>
      </Stack>
    </Container>
  );
}

export interface ErrorBoundaryProps {
  children: ReactNode;
  /**
   * 'app' wraps the whole page: Try Again reloads it, since state may be broken anywhere.
   * 'nested' wraps one screen: Try Again re-renders it and the rest of the page stays usable.
   */
  level?: 'app' | 'nested';
  /** Injected by tests; the app-level retry defaults to a full reload. */
  onReload?: () => void;
  /** A change clears the error and renders the children again (the layout's: a new address). */
  resetKey?: string;
}

interface ErrorBoundaryState {
  error: unknown;
  errorId: string | null;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, errorId: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, errorId: createErrorId() };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    logError(this.state.errorId ?? 'ERR-UNKNOWN', error, info.componentStack);
  }

  componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.errorId !== null && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null, errorId: null });
    }
  }

  private retry = () => {
    if (this.props.level === 'nested') {
      this.setState({ error: null, errorId: null });
      return;
    }
    (this.props.onReload ?? (() => window.location.reload()))();
  };

  render() {
    if (this.state.errorId === null) return this.props.children;
    return <ErrorFallback error={this.state.error} errorId={this.state.errorId} onRetry={this.retry} />;
  }
}
