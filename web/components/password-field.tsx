import { PasswordInput, type PasswordInputProps } from '@mantine/core';

export interface PasswordFieldProps extends PasswordInputProps {
  label: string;
}

/**
 * Mantine's PasswordInput with a show/hide toggle that keyboard users can reach and that says
 * which field it reveals ('Show password', 'Show confirm password'); aria-pressed tells the state.
 */
export function PasswordField({ label, ...props }: PasswordFieldProps) {
  return (
    <PasswordInput
      label={label}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': `Show ${label.toLowerCase()}` }}
      {...props}
    />
  );
}
