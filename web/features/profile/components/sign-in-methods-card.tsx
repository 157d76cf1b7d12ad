import { Badge, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconLock } from '@tabler/icons-react';
import { formatDateTime } from '#shared/format.ts';
import { SectionError } from '#web/components/load-states.tsx';
import { useIdentities } from '../api/get-identities.ts';

/** The provider's host ('https://sso.example.com/realms/x' → 'sso.example.com'), else the issuer as given. */
function issuerName(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}

/** How the member can sign in: a password of their own, and each linked single sign-on identity. */
export function SignInMethodsCard() {
  const identities = useIdentities();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="md">
        <Title order={2} size="h4">
          Sign-in Methods
        </Title>
        {identities.isPending ? (
          <Loader size="sm" aria-label="Loading sign-in methods" />
        ) : identities.isError ? (
          <SectionError
            title="Failed to load sign-in methods"
            message="Your account still signs in as before."
            onRetry={() => void identities.refetch()}
            retrying={identities.isFetching}
          />
        ) : (
          <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
            <Group component="li" gap="sm" wrap="nowrap" align="flex-start">
              <IconLock size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
              <Stack gap={2} miw={0}>
                <Group gap="xs">
                  <Text fw={600}>Password</Text>
                  <Badge variant="light" color={identities.data.has_password ? 'teal' : 'gray'}>
                    {identities.data.has_password ? 'Set' : 'Not set'}
                  </Badge>
                </Group>
                {!identities.data.has_password && (
                  <Text size="sm" c="dimmed">
                    This account signs in with single sign-on only.
                  </Text>
                )}
              </Stack>
            </Group>
            {identities.data.identities.length === 0 ? (
              <Text component="li" size="sm" c="dimmed">
                No single sign-on identity is linked to this account.
              </Text>
            ) : (
              identities.data.identities.map((identity) => (
                <Group key={identity.id} component="li" gap="sm" wrap="nowrap" align="flex-start">
                  <IconKey size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                  <Stack gap={2} miw={0}>
                    <Group gap="xs">
                      <Text fw={600}>Single sign-on</Text>
                      <Text size="sm" c="dimmed" title={identity.issuer} style={{ wordBreak: 'break-all' }}>
                        {issuerName(identity.issuer)}
                      </Text>
                    </Group>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {identity.email ?? 'No e-mail shared'}
                    </Text>
                    <Text size="sm" c="dimmed">
                      Last sign-in: {formatDateTime(identity.last_sign_in_at, { missing: 'Never' })} · linked{' '}
                      {formatDateTime(identity.created_at)}
                    </Text>
                  </Stack>
                </Group>
              ))
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
