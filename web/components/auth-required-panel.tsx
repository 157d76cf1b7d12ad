import { Button, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { writeRedirectAfterLogin } from '#web/lib/storage.ts';

export interface AuthRequiredPanelProps {
  /** The screen's own line, e.g. 'Please sign in to add repositories'. */
  message: string;
}

/** What anonymous visitors see on the tags, stats and add screens instead of a redirect. */
export function AuthRequiredPanel({ message }: AuthRequiredPanelProps) {
  const location = useLocation();
  return (
    <Container size="sm" py="xl">
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={56} radius="xl" variant="light">
            <IconLock size={28} aria-hidden />
          </ThemeIcon>
          <Title order={1} size="h2">
            Authentication Required
          </Title>
          <Text>{message}</Text>
          <Group gap="sm" justify="center">
            <Button
              component={Link}
              to="/login"
              // Bring the visitor back here after signing in, as the redirecting screens do.
              onClick={() => writeRedirectAfterLogin(`#${location.pathname}${location.search}`)}
            >
              Sign In
            </Button>
            <Button component={Link} to="/register" variant="default">
              Create Account
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
