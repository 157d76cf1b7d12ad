import { Avatar, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { SectionError } from '#web/components/load-states.tsx';
import { PageContainer } from '#web/components/page-container.tsx';
import { useMe } from '#web/lib/auth/api/get-me.ts';
import { useAuth, useSignedInUser } from '#web/lib/auth/auth-context.tsx';
import { displayName, isSameUser } from '#web/lib/auth/user.ts';
import { AccountDetailsCard, AccountStatisticsCard } from '../components/account-cards.tsx';
import { PersonalInfoCard } from '../components/personal-info-card.tsx';
import { SignInMethodsCard } from '../components/sign-in-methods-card.tsx';

export const PROFILE_LOAD_FAILED = 'Failed to load profile information';

export default function ProfileRoute() {
  const user = useSignedInUser();
  const { updateUser } = useAuth();
  // The stored copy shows at once; GET /auth/me brings the current values.
  const me = useMe();

  useEffect(() => {
    if (me.data && !isSameUser(me.data, user)) updateUser(me.data);
  }, [me.data, user, updateUser]);

  const initial = (user.first_name.trim()[0] ?? user.username[0] ?? '?').toUpperCase();

  return (
    <PageContainer width="narrow">
      <Stack gap="lg">
        <div>
          <Title order={1}>Profile</Title>
          <Text c="dimmed">Your personal information and account activity.</Text>
        </div>

        {me.isError && (
          <SectionError
            title={PROFILE_LOAD_FAILED}
            message="Showing the details saved in this browser."
            onRetry={() => void me.refetch()}
            retrying={me.isFetching}
          />
        )}

        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <Group gap="md" wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={64} aria-hidden>
              <Text size="xl" fw={700} inherit>
                {initial}
              </Text>
            </Avatar>
            <Stack gap={2} miw={0}>
              <Text fw={700} size="lg" truncate>
                {displayName(user)}
              </Text>
              <Text c="dimmed" size="sm" truncate>
                @{user.username} · {user.email}
              </Text>
              <Group gap={6} mt={4}>
                {user.is_admin && (
                  <Badge color="grape" variant="light">
                    Admin
                  </Badge>
                )}
                <Badge color={user.is_verified ? 'teal' : 'yellow'} variant="light">
                  {user.is_verified ? 'Verified' : 'Unverified'}
                </Badge>
              </Group>
            </Stack>
          </Group>
        </Paper>

        <PersonalInfoCard user={user} />

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <AccountStatisticsCard user={user} />
          <AccountDetailsCard user={user} />
        </SimpleGrid>

        <SignInMethodsCard />
      </Stack>
    </PageContainer>
  );
}
