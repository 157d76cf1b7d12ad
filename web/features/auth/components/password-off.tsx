import { Button, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { useAuthProviders } from '../api/get-auth-providers.ts';

/** Says so instead of the form when password accounts are off (PASSWORD_LOGIN=off). */
function PasswordOff({ title }: { title: string }) {
  const { data } = useAuthProviders();
  const sso = data?.oidc.enabled === true;
  return (
    <AuthCard title={title}>
      <Stack gap="md">
        <InlineMessage kind="info">
          Password accounts are turned off on this instance: registration, password sign-in and password reset
          are not available.
        </InlineMessage>
        <Text size="sm">
          {sso
            ? `Sign in with single sign-on instead (${data.oidc.button_text}).`
            : 'Ask an administrator how to sign in.'}
        </Text>
        <Button component={Link} to="/login" fullWidth leftSection={<IconKey size={18} aria-hidden />}>
          {sso ? data.oidc.button_text : 'Go to Login'}
        </Button>
      </Stack>
    </AuthCard>
  );
}

/** The screen's own content, or the "password accounts are off" card once the server says so. */
export function PasswordScreen({ title, children }: { title: string; children: ReactNode }) {
  const { data } = useAuthProviders();
  return data?.password === false ? <PasswordOff title={title} /> : children;
}
