import { Button, Stack, Text } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { useOidcErrorMessage } from '../lib/oidc-error-message.ts';

export interface SsoOptionsProps {
  /** The provider's button text; null without single sign-on. */
  buttonText: string | null;
  /** GET /auth/oidc/start with `return_to` and `remember_me`. */
  startUrl: string;
  /** The `oidc_error` the callback sent back, shown above everything. */
  oidcError: string | null;
  /** Password sign-in is on: the password form follows. */
  password: boolean;
}

/**
 * The sign-in screen's single sign-on part: why the last attempt failed, the provider's button
 * (a full-page navigation), and what follows it. Loaded once the server has said there is a
 * provider (or an error to show), so the screen's first load stays as small as it was.
 */
export default function SsoOptions({ buttonText, startUrl, oidcError, password }: SsoOptionsProps) {
  const errorText = useOidcErrorMessage(oidcError);
  return (
    <Stack gap="md" mb={password ? 'md' : 0}>
      {oidcError !== null && errorText !== null && (
        <InlineMessage kind="error" title="Single sign-on did not complete">
          {errorText}
        </InlineMessage>
      )}
      {buttonText !== null && (
        <Button
          component="a"
          href={startUrl}
          fullWidth
          variant={password ? 'default' : 'filled'}
          leftSection={<IconFingerprint size={18} aria-hidden />}
        >
          {buttonText}
        </Button>
      )}
      {buttonText !== null && password && (
        <Text size="sm" c="dimmed" ta="center">
          or with a password
        </Text>
      )}
      {buttonText === null && !password && (
        <InlineMessage kind="info">
          Password sign-in is turned off on this instance. Ask an administrator how to sign in.
        </InlineMessage>
      )}
    </Stack>
  );
}
