import { Paper, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAdjustments,
  IconBell,
  IconBrandGithub,
  IconCode,
  IconKey,
  IconShieldLock,
  IconSparkles,
} from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageContainer } from '#web/components/page-container.tsx';
import { useSignedInUser } from '#web/lib/auth/auth-context.tsx';
import { ApiTokensTab } from '../components/api-tokens-tab.tsx';
import { FeedTokenCard } from '../components/feed-token-card.tsx';
import { GitHubTokenCard } from '../components/github-token-card.tsx';
import { NotificationsTab } from '../components/notifications-tab.tsx';
import { PasswordTab } from '../components/password-tab.tsx';
import { SecurityTab } from '../components/security-tab.tsx';
import { SlackWebhookCard } from '../components/slack-webhook-card.tsx';

const TABS = ['password', 'security', 'github', 'tokens', 'notifications', 'preferences'] as const;
type SettingsTab = (typeof TABS)[number];

function isTab(value: string | null): value is SettingsTab {
  return TABS.includes(value as SettingsTab);
}

/**
 * Settings (docs/product.md#settings); the open tab is kept in `?tab=` so it survives a reload and can be
 * linked.
 */
export default function SettingsRoute() {
  const user = useSignedInUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: SettingsTab = isTab(requested) ? requested : 'password';

  const selectTab = (value: string | null) => {
    if (!isTab(value)) return;
    setSearchParams(value === 'password' ? {} : { tab: value }, { replace: true });
  };

  return (
    <PageContainer width="narrow">
      <Stack gap="lg">
        <div>
          <Title order={1}>Settings</Title>
          <Text c="dimmed">
            Password, security, GitHub access, API tokens, notifications and preferences.
          </Text>
        </div>
        <Tabs value={tab} onChange={selectTab} keepMounted={false}>
          <Tabs.List mb="lg">
            <Tabs.Tab value="password" leftSection={<IconKey size={16} aria-hidden />}>
              Password
            </Tabs.Tab>
            <Tabs.Tab value="security" leftSection={<IconShieldLock size={16} aria-hidden />}>
              Security
            </Tabs.Tab>
            <Tabs.Tab value="github" leftSection={<IconBrandGithub size={16} aria-hidden />}>
              GitHub Access
            </Tabs.Tab>
            <Tabs.Tab value="tokens" leftSection={<IconCode size={16} aria-hidden />}>
              API tokens
            </Tabs.Tab>
            <Tabs.Tab value="notifications" leftSection={<IconBell size={16} aria-hidden />}>
              Notifications
            </Tabs.Tab>
            <Tabs.Tab value="preferences" leftSection={<IconAdjustments size={16} aria-hidden />}>
              Preferences
            </Tabs.Tab>
          </Tabs.List>

          <Tabs.Panel value="password">
            <PasswordTab />
          </Tabs.Panel>
          <Tabs.Panel value="security">
            <SecurityTab user={user} />
          </Tabs.Panel>
          <Tabs.Panel value="github">
            <Stack gap="lg">
              <GitHubTokenCard />
              <SlackWebhookCard />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="tokens">
            <ApiTokensTab isAdmin={user.is_admin} />
          </Tabs.Panel>
          <Tabs.Panel value="notifications">
            <NotificationsTab />
            {/* The activity's Atom feed: another way to follow what changed (docs/product.md#activity-feed). */}
            <FeedTokenCard mt="lg" />
          </Tabs.Panel>
          <Tabs.Panel value="preferences">
            <Paper withBorder radius="lg" p="xl">
              <Stack align="center" gap="sm" ta="center">
                <ThemeIcon size={48} radius="xl" variant="light">
                  <IconSparkles size={26} aria-hidden />
                </ThemeIcon>
                <Title order={2} size="h4">
                  Coming Soon
                </Title>
                <Text c="dimmed" size="sm">
                  Display and notification preferences will live here.
                </Text>
              </Stack>
            </Paper>
          </Tabs.Panel>
        </Tabs>
      </Stack>
    </PageContainer>
  );
}
