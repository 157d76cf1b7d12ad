import { Anchor, Container, Divider, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

/** Inside <main>, so it is the page's closing section, not a second contentinfo landmark. */
export function LandingFooter() {
  return (
    <footer>
      <Divider />
      <Container size="lg" py="lg">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            A free, self-hosted catalogue for the repositories you follow.
          </Text>
          <Group gap="md" component="nav" aria-label="Account">
            <Anchor component={Link} to="/login" size="sm">
              Sign In
            </Anchor>
            <Anchor component={Link} to="/register" size="sm">
              Create Account
            </Anchor>
          </Group>
        </Group>
      </Container>
    </footer>
  );
}
