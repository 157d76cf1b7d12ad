import { ActionIcon, Button, type ButtonProps, Tooltip } from '@mantine/core';
import { forwardRef, type ReactNode } from 'react';

interface BarButtonProps {
  icon: ReactNode;
  label: string;
  compact: boolean;
  onClick: () => void;
  loading?: boolean;
  color?: string;
  variant?: ButtonProps['variant'];
}

/** A labelled button, or on a phone an icon with the same name and a tooltip: the bar stays one row. */
export const BarButton = forwardRef<HTMLButtonElement, BarButtonProps>(function BarButton(
  { icon, label, compact, onClick, loading, color, variant = 'default', ...rest },
  ref,
) {
  // `rest`: what a Popover.Target adds (aria-expanded, aria-controls).
  if (compact)
    return (
      <Tooltip label={label}>
        <ActionIcon
          ref={ref}
          size={32}
          variant={variant}
          color={color}
          loading={loading}
          aria-label={label}
          onClick={onClick}
          {...rest}
        >
          {icon}
        </ActionIcon>
      </Tooltip>
    );
  return (
    <Button
      {...rest}
      ref={ref}
      variant={variant}
      color={color}
      size="xs"
      leftSection={icon}
      loading={loading}
      onClick={onClick}
    >
      {label}
    </Button>
  );
});
