import { Group, Text } from '@mantine/core';
import { useVersion } from '#web/features/system/api/get-version.ts';
import { DEFAULT_APP_NAME } from '#web/features/system/hooks/use-app-name.ts';

/** App name, version and commit; the commit only when the build knows it. */
export function AppFooter() {
  const { data } = useVersion();
  const appName = data?.app_name || DEFAULT_APP_NAME;
  const commit = data?.git_commit ? data.git_commit.slice(0, 7) : null;

  return (
    <Group h="100%" px="md" gap="xs" justify="center" wrap="nowrap">
      <Text size="xs" c="dimmed" truncate>
        {appName}
        {data && <> · v{data.api_version}</>}
        {commit && data?.git_commit && (
          <>
            {' · '}
            <Text span inherit ff="monospace" title={data.git_commit}>
              commit {commit}
            </Text>
          </>
        )}
      </Text>
    </Group>
  );
}
