import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

// Mantine's notification view (its transitions, portal and scroll-lock class names) is a chunk
// of its own, requested when the first notification is shown: most first screens show none
// (docs/architecture.md#web-app). The store it reads is the one `notifications.show` writes.
const NotificationsView = lazy(() => import('./notifications-view.tsx'));

export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsView />
    </Suspense>
  );
}
