import { Alert, Button, Container, Stack, Title } from '@mantine/core';
import { IconHome, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ACCESS_DENIED_MESSAGE } from '../lib/admin-messages.ts';

/** What a non-admin sees on the admin dashboard, with the way back. */
export function AccessDenied() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg" align="center" ta="center">
        <Title order={1}>Admin Dashboard</Title>
        <Alert
          color="red"
          variant="light"
          icon={<IconLock size={20} aria-hidden />}
          w="100%"
          styles={{ message: { textAlign: 'left' }, title: { textAlign: 'left' } }}
        >
          {ACCESS_DENIED_MESSAGE}
        </Alert>
        <Button component={Link} to="/home" leftSection={<IconHome size={16} aria-hidden />}>
          Return to Home
        </Button>
      </Stack>
    </Container>
  );
}
