// Mantine's notification styles come with the view, after the first screens' styles.
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Loaded by notifications-host.tsx with the first notification. */
export default function NotificationsView() {
  return <Notifications position="top-right" />;
}
