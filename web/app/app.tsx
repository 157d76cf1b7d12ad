import { RouterProvider } from 'react-router';
import { LoadingScreen } from '#web/components/loading-screen.tsx';
import { useAuth } from '#web/lib/auth/auth-context.tsx';
import type { createAppRouter } from './router.ts';

export type AppRouter = ReturnType<typeof createAppRouter>;

/** Routes only once the session is known, so guards never act on a half-restored state. */
export function App({ router }: { router: AppRouter }) {
  const { status } = useAuth();
  if (status !== 'ready') return <LoadingScreen label="Initializing..." />;
  return <RouterProvider router={router} />;
}
