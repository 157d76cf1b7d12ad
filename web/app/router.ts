import { createHashRouter } from 'react-router';
import { appRoutes } from './routes.tsx';

/** Hash routing (docs/product.md#screens-and-routes): the server serves one page and never sees the path. */
export function createAppRouter() {
  return createHashRouter(appRoutes);
}
