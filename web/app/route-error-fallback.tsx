import { useEffect, useState } from 'react';
import { useRouteError } from 'react-router';
import { createErrorId, ErrorFallback, logError } from '#web/components/error-boundary.tsx';

/** The router catches errors of the layout itself; they get the app-level fallback (reload). */
export function RouteErrorFallback() {
  const error = useRouteError();
  const [errorId] = useState(createErrorId);
  useEffect(() => logError(errorId, error), [errorId, error]);
  return <ErrorFallback error={error} errorId={errorId} onRetry={() => window.location.reload()} />;
}
