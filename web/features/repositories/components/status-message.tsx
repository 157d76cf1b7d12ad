import { Alert } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { FlashMessage } from '../lib/use-flash-message.ts';

const LOOK = {
  success: { color: 'green', icon: IconCircleCheck, role: 'status' },
  error: { color: 'red', icon: IconAlertCircle, role: 'alert' },
  info: { color: 'blue', icon: IconInfoCircle, role: 'status' },
  warning: { color: 'yellow', icon: IconAlertTriangle, role: 'status' },
} as const;

/** A flash message: errors are announced at once (alert), the rest politely (status). */
export function StatusMessage({ message, onClose }: { message: FlashMessage | null; onClose?: () => void }) {
  if (!message) return null;
  const { color, icon: Icon, role } = LOOK[message.kind];
  return (
    <Alert
      role={role}
      color={color}
      variant="light"
      py="xs"
      icon={<Icon size={18} aria-hidden />}
      withCloseButton={onClose !== undefined}
      closeButtonLabel="Dismiss message"
      onClose={onClose}
    >
      {message.text}
    </Alert>
  );
}
