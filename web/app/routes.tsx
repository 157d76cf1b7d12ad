import { type ComponentType, lazy } from 'react';
import type { RouteObject } from 'react-router';
import { RouteErrorFallback } from './route-error-fallback.tsx';
import { type RouteAccess, RouteGuard } from './route-guard.tsx';
import { AppLayout } from './shell/app-layout.tsx';

// Every screen is its own chunk, so the first load carries only the shell (and charts,
// when they arrive, load with the screens that draw them).
const LandingRoute = lazy(() => import('../features/landing/routes/landing.tsx'));
const LoginRoute = lazy(() => import('../features/auth/routes/login.tsx'));
const RegisterRoute = lazy(() => import('../features/auth/routes/register.tsx'));
const VerifyEmailRoute = lazy(() => import('../features/auth/routes/verify-email.tsx'));
const ForgotPasswordRoute = lazy(() => import('../features/auth/routes/forgot-password.tsx'));
const ResetPasswordRoute = lazy(() => import('../features/auth/routes/reset-password.tsx'));
const ResendVerificationRoute = lazy(() => import('../features/auth/routes/resend-verification.tsx'));
const RepositoryListRoute = lazy(() => import('../features/repositories/routes/repository-list.tsx'));
const RepositoryDetailRoute = lazy(() => import('../features/repositories/routes/repository-detail.tsx'));
const AddRepositoriesRoute = lazy(() => import('../features/repositories/routes/add-repositories.tsx'));
const TagsRoute = lazy(() => import('../features/tags/routes/tags.tsx'));
const StatsRoute = lazy(() => import('../features/stats/routes/stats.tsx'));
const ProfileRoute = lazy(() => import('../features/profile/routes/profile.tsx'));
const SettingsRoute = lazy(() => import('../features/settings/routes/settings.tsx'));
const AdminRoute = lazy(() => import('../features/admin/routes/admin.tsx'));

export interface ScreenRoute {
  path: string;
  access: RouteAccess;
  screen: ComponentType;
  anonymousScreen?: ComponentType;
  prompt?: string;
}

/** The route table (docs/product.md#route-table). Paths are the part after `#`. */
export const screenRoutes: ScreenRoute[] = [
  { path: '/', access: 'landing', screen: LandingRoute },
  { path: '/home', access: 'member', screen: RepositoryListRoute },
  { path: '/login', access: 'guest', screen: LoginRoute },
  { path: '/register', access: 'guest', screen: RegisterRoute },
  { path: '/verify-email', access: 'public', screen: VerifyEmailRoute },
  { path: '/forgot-password', access: 'guest', screen: ForgotPasswordRoute },
  { path: '/reset-password', access: 'guest', screen: ResetPasswordRoute },
  { path: '/repo/:id', access: 'member', screen: RepositoryDetailRoute },
  { path: '/profile', access: 'member', screen: ProfileRoute },
  { path: '/settings', access: 'member', screen: SettingsRoute },
  { path: '/tags', access: 'member-prompt', screen: TagsRoute, prompt: 'Please sign in to view your tags.' },
  {
    path: '/stats',
    access: 'member-prompt',
    screen: StatsRoute,
    prompt: 'Please sign in to view your statistics.',
  },
  {
    path: '/add',
    access: 'member-prompt',
    screen: AddRepositoriesRoute,
    prompt: 'Please sign in to add repositories',
  },
  // Admin rights are checked by the screen itself, which offers 'Return to Home'
  // (docs/product.md#admin-dashboard).
  { path: '/admin', access: 'member', screen: AdminRoute },
  { path: '/resend-verification', access: 'public', screen: ResendVerificationRoute },
  { path: '*', access: 'fallback', screen: RepositoryListRoute, anonymousScreen: LandingRoute },
];

export const appRoutes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteErrorFallback />,
    children: screenRoutes.map(({ path, ...guard }) => ({ path, element: <RouteGuard {...guard} /> })),
  },
];
