import { createHashRouter } from 'react-router';
import { appRoutes } from './routes.tsx';

/** Hash routing (SPEC §2): the server serves one page and never sees the path. */
export function createAppRouter() {
  return createHashRouter(appRoutes);
}
