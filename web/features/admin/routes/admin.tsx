import { useAuth } from '#web/lib/auth/auth-context.tsx';
import { AccessDenied } from '../components/access-denied.tsx';
import { AdminDashboard } from '../components/admin-dashboard.tsx';

/**
 * `#/admin?tab=…`. Members who are not admins see the denial with 'Return to
 * Home'; the server refuses their calls anyway (403), which shows the same screen.
 */
export default function AdminRoute() {
  const { user } = useAuth();
  if (!user?.is_admin) return <AccessDenied />;
  return <AdminDashboard />;
}
