import { Alert } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface FormMessageProps {
  kind: 'success' | 'error';
  children: ReactNode;
  title?: string;
  onClose?: () => void;
}

/** A form's banner: errors are announced at once (role alert), successes politely (status). */
export function FormMessage({ kind, children, title, onClose }: FormMessageProps) {
  const error = kind === 'error';
  return (
    <Alert
      role={error ? 'alert' : 'status'}
      color={error ? 'red' : 'green'}
      variant="light"
      title={title}
      icon={error ? <IconAlertCircle size={18} aria-hidden /> : <IconCircleCheck size={18} aria-hidden />}
      withCloseButton={onClose !== undefined}
      closeButtonLabel="Dismiss message"
      onClose={onClose}
    >
      {children}
    </Alert>
  );
}
