import { Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen whose content arrives with a later issue: its SPEC heading and nothing else. */
export function PagePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Container size="lg" py="md">
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        {children ?? <Text c="dimmed">This screen is being built.</Text>}
      </Stack>
    </Container>
  );
}
