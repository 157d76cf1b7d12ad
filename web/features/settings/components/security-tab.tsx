import { Anchor, Badge, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '#shared/format.ts';
import { ConfirmDialog } from '#web/components/confirm-dialog.tsx';
import { DetailList, YesNo } from '#web/components/detail-list.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import type { User } from '#web/lib/auth/user.ts';
import { useLogoutAll } from '../api/logout-all.ts';

/**
 * Read-only account facts, plus "sign out everywhere" (POST /auth/logout-all), which also revokes
 * the activity feed's address (docs/product.md#settings).
 */
export function SecurityTab({ user }: { user: User }) {
  const logoutAll = useLogoutAll();
  const [confirming, setConfirming] = useState(false);

  return (
    <Stack gap="lg">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Account Security
          </Title>
          <DetailList
            items={[
              { label: 'Email Verified', value: <YesNo value={user.is_verified} /> },
              {
                label: 'Account Active',
                value: (
                  <Badge variant="light" color={user.is_active ? 'teal' : 'red'}>
                    {user.is_active ? 'Active' : 'Inactive'}
                  </Badge>
                ),
              },
              { label: 'Administrator', value: <YesNo value={user.is_admin} /> },
              { label: 'Username', value: user.username },
              { label: 'Email', value: user.email },
              { label: 'Last Login', value: formatDateTime(user.last_login_at, { missing: 'Never' }) },
            ]}
          />
        </Stack>
      </Paper>

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            Sessions
          </Title>
          <Text size="sm" c="dimmed">
            Signed in on a shared or lost device? Sign out of every browser and device at once, this one
            included. Your activity feed address stops working too: make a new one under Notifications.
          </Text>
          <Text size="sm" c="dimmed" data-api-tokens-note>
            API tokens are not sessions: they keep working after this.{' '}
            <Anchor component={Link} to="/settings?tab=tokens" size="sm" underline="always">
              Revoke them under API tokens
            </Anchor>
            .
          </Text>
          {logoutAll.isError && (
            <InlineMessage kind="error">
              {describeError(logoutAll.error, 'Failed to sign out of all sessions')}
            </InlineMessage>
          )}
          <Button
            color="red"
            variant="light"
            leftSection={<IconLogout size={18} aria-hidden />}
            onClick={() => setConfirming(true)}
          >
            Sign out of all sessions
          </Button>
        </Stack>
      </Paper>

      <ConfirmDialog
        opened={confirming}
        title="Sign out of all sessions?"
        confirmLabel="Sign Out Everywhere"
        busy={logoutAll.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => logoutAll.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        Every browser and device signed in to your account, including this one, will have to sign in again,
        and your activity feed address will stop working. API tokens keep working: revoke them under API
        tokens.
      </ConfirmDialog>
    </Stack>
  );
}
