import { type ComponentType, lazy } from 'react';
import { type RouteObject, useLocation } from 'react-router';
import { ErrorBoundary } from '#web/components/error-boundary.tsx';
import { loadRepositoryList, memberScreen } from './preload.ts';
import { type RouteAccess, RouteGuard } from './route-guard.tsx';
import { AppLayout } from './shell/app-layout.tsx';

// Every screen is its own chunk, so the first load carries only the shell (and charts,
// when they arrive, load with the screens that draw them). Member screens also wait for the
// signed-in screens' Mantine styles (preload.ts), which the signed-out screens never load.
const LandingRoute = lazy(() => import('#web/features/landing/routes/landing.tsx'));
const LoginRoute = lazy(() => import('#web/features/auth/routes/login.tsx'));
const RegisterRoute = lazy(() => import('#web/features/auth/routes/register.tsx'));
const VerifyEmailRoute = lazy(() => import('#web/features/auth/routes/verify-email.tsx'));
const ForgotPasswordRoute = lazy(() => import('#web/features/auth/routes/forgot-password.tsx'));
const ResetPasswordRoute = lazy(() => import('#web/features/auth/routes/reset-password.tsx'));
const ResendVerificationRoute = lazy(() => import('#web/features/auth/routes/resend-verification.tsx'));
const RepositoryListRoute = lazy(memberScreen(loadRepositoryList));
// The detail screen with the activity feature's card: composed here, as features don't import each other.
const RepositoryDetailRoute = lazy(memberScreen(() => import('./repository-detail-screen.tsx')));
const AddRepositoriesRoute = lazy(
  memberScreen(() => import('#web/features/repositories/routes/add-repositories.tsx')),
);
const TagsRoute = lazy(memberScreen(() => import('#web/features/tags/routes/tags.tsx')));
const StatsRoute = lazy(memberScreen(() => import('#web/features/stats/routes/stats.tsx')));
const ProfileRoute = lazy(memberScreen(() => import('#web/features/profile/routes/profile.tsx')));
const SettingsRoute = lazy(memberScreen(() => import('#web/features/settings/routes/settings.tsx')));
const AdminRoute = lazy(memberScreen(() => import('#web/features/admin/routes/admin.tsx')));
const ActivityRoute = lazy(memberScreen(() => import('#web/features/activity/routes/activity.tsx')));
const RadarRoute = lazy(memberScreen(() => import('#web/features/radar/routes/radar.tsx')));

export interface ScreenRoute {
  path: string;
  access: RouteAccess;
  screen: ComponentType;
  anonymousScreen?: ComponentType;
  prompt?: string;
  /** The screen's name in the browser tab. */
  title: string;
}

/** The route table (docs/product.md#route-table). Paths are the part after `#`. */
export const screenRoutes: ScreenRoute[] = [
  { path: '/', access: 'landing', screen: LandingRoute, title: 'Welcome' },
  { path: '/home', access: 'member', screen: RepositoryListRoute, title: 'Repositories' },
  { path: '/login', access: 'guest', screen: LoginRoute, title: 'Sign In' },
  { path: '/register', access: 'guest', screen: RegisterRoute, title: 'Create Account' },
  { path: '/verify-email', access: 'public', screen: VerifyEmailRoute, title: 'Verify E-mail' },
  { path: '/forgot-password', access: 'guest', screen: ForgotPasswordRoute, title: 'Forgot Password' },
  { path: '/reset-password', access: 'guest', screen: ResetPasswordRoute, title: 'Reset Password' },
  { path: '/repo/:id', access: 'member', screen: RepositoryDetailRoute, title: 'Repository' },
  { path: '/profile', access: 'member', screen: ProfileRoute, title: 'Profile' },
  { path: '/settings', access: 'member', screen: SettingsRoute, title: 'Settings' },
  {
    path: '/tags',
    access: 'member-prompt',
    screen: TagsRoute,
    prompt: 'Please sign in to view your tags.',
    title: 'Tags',
  },
  {
    path: '/stats',
    access: 'member-prompt',
    screen: StatsRoute,
    prompt: 'Please sign in to view your statistics.',
    title: 'Statistics',
  },
  {
    path: '/activity',
    access: 'member-prompt',
    screen: ActivityRoute,
    prompt: 'Please sign in to view the activity.',
    title: 'Activity',
  },
  {
    path: '/radar',
    access: 'member-prompt',
    screen: RadarRoute,
    prompt: 'Please sign in to view the radar.',
    title: 'Radar',
  },
  {
    path: '/add',
    access: 'member-prompt',
    screen: AddRepositoriesRoute,
    prompt: 'Please sign in to add repositories',
    title: 'Add Repositories',
  },
  // Admin rights are checked by the screen itself, which offers 'Return to Home'
  // (docs/product.md#admin-dashboard).
  { path: '/admin', access: 'member', screen: AdminRoute, title: 'Administration' },
  {
    path: '/resend-verification',
    access: 'public',
    screen: ResendVerificationRoute,
    title: 'Resend Verification',
  },
  {
    path: '*',
    access: 'fallback',
    screen: RepositoryListRoute,
    anonymousScreen: LandingRoute,
    title: 'Repositories',
  },
];

/**
 * Errors of the layout itself get the app-level fallback (Try Again reloads) until the address
 * changes; a screen's own errors stop at the layout's nested boundary.
 */
function LayoutRoute() {
  const { key } = useLocation();
  return (
    <ErrorBoundary level="app" resetKey={key}>
      <AppLayout />
    </ErrorBoundary>
  );
}

export const appRoutes: RouteObject[] = [
  {
    element: <LayoutRoute />,
    children: screenRoutes.map(({ path, ...guard }) => ({ path, element: <RouteGuard {...guard} /> })),
  },
];
