import { HashRouter, matchRoutes, useLocation, useRoutes } from 'react-router';
import { LoadingScreen } from '#web/components/loading-screen.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { appRoutes } from './routes.tsx';
import { FallbackRouteContext } from './shell/fallback-route.ts';

/**
 * Hash routing (docs/product.md#screens-and-routes): the server serves one page and never sees
 * the path. The declarative `HashRouter`, not the data router (`createHashRouter`): no screen
 * uses loaders, actions or fetchers, and that router was about 18 kB gzip of every first load
 * (docs/decisions.md, "The first screens").
 *
 * Routes only once the session is known, so guards never act on a half-restored state.
 */
export function App() {
  const { status } = useAuth();
  if (status !== 'ready') return <LoadingScreen label="Initializing..." />;
  return (
    <HashRouter>
      <AppRoutes />
    </HashRouter>
  );
}

function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(appRoutes, location);
  // The sidebar highlights Repositories on unknown paths, which show the list.
  const fallback = matchRoutes(appRoutes, location)?.at(-1)?.route.path === '*';
  return <FallbackRouteContext value={fallback}>{element}</FallbackRouteContext>;
}
