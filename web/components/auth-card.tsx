import { Center, Container, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  /** A Tabler icon shown above the title (success, failure, mail states). */
  icon?: ReactNode;
  iconColor?: string;
  children?: ReactNode;
}

/** The narrow centred card every sign-in, sign-up and recovery screen sits in. */
export function AuthCard({ title, subtitle, icon, iconColor, children }: AuthCardProps) {
  return (
    <Container size={460} px="md" py={{ base: 'lg', sm: 48 }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="lg">
          <Stack gap="xs" align="center" ta="center">
            {icon && (
              <Center>
                <ThemeIcon size={56} radius="xl" variant="light" color={iconColor}>
                  {icon}
                </ThemeIcon>
              </Center>
            )}
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
