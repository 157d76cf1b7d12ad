import { Alert } from '@mantine/core';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MessageKind } from '#web/lib/hooks/use-message.ts';

const LOOK = {
  success: { color: 'green', icon: IconCircleCheck, role: 'status' },
  error: { color: 'red', icon: IconAlertCircle, role: 'alert' },
  info: { color: 'blue', icon: IconInfoCircle, role: 'status' },
  warning: { color: 'yellow', icon: IconAlertTriangle, role: 'status' },
} as const;

const STARTS_WITH_SIGN = /^(✅|❌|⚠️|⏳)/u;

export interface InlineMessageProps {
  kind: MessageKind;
  children: ReactNode;
  title?: string;
  /** Shows a dismiss button. */
  onClose?: () => void;
}

/**
 * Every inline message of the app (a form's result, an action's outcome): errors are announced
 * at once (role alert), the rest politely (status).
 */
export function InlineMessage({ kind, children, title, onClose }: InlineMessageProps) {
  const { color, icon: Icon, role } = LOOK[kind];
  // SPEC's texts carry their own sign ('✅ Saved!', '❌ Failed to save.'): no second one beside it.
  const signed = typeof children === 'string' && STARTS_WITH_SIGN.test(children);
  return (
    <Alert
      role={role}
      color={color}
      variant="light"
      title={title}
      icon={signed ? undefined : <Icon size={18} aria-hidden />}
      withCloseButton={onClose !== undefined}
      closeButtonLabel="Dismiss message"
      onClose={onClose}
    >
      {children}
    </Alert>
  );
}
