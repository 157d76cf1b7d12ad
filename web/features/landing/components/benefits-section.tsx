import { Box, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCoin, IconGauge, IconShieldLock, IconUsersGroup, type TablerIcon } from '@tabler/icons-react';
import classes from './landing.module.css';

interface Benefit {
  icon: TablerIcon;
  title: string;
  description: string;
}

const benefits: Benefit[] = [
  {
    icon: IconCoin,
    title: 'Free, with no credit card',
    description: 'No subscription, no trial that runs out, no payment details. Register and start adding.',
  },
  {
    icon: IconShieldLock,
    title: 'Your server, your data',
    description: 'Self-hosted on SQLite or PostgreSQL, with automatic backups you keep and control.',
  },
  {
    icon: IconUsersGroup,
    title: 'Made for small teams',
    description: 'One shared catalogue: everyone curates tags, notes, versions and comments together.',
  },
  {
    icon: IconGauge,
    title: 'Light on API quota',
    description: 'Conditional requests and batching keep GitHub calls low, so large collections stay fresh.',
  },
];

export function BenefitsSection() {
  return (
    <Box component="section" className={classes.band} aria-labelledby="landing-benefits-title">
      <Container size="lg" py={{ base: 48, sm: 80 }}>
        <Stack gap="xl">
          <Title id="landing-benefits-title" order={2} ta="center">
            Why teams choose it
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={{ base: 'lg', sm: 'xl' }}>
            {benefits.map(({ icon: Icon, title, description }) => (
              <Group key={title} align="flex-start" wrap="nowrap" gap="md">
                <ThemeIcon size={48} radius="xl" variant="filled">
                  <Icon size={24} aria-hidden />
                </ThemeIcon>
                <div>
                  <Title order={3} size="h4" mb={4}>
                    {title}
                  </Title>
                  <Text c="dimmed">{description}</Text>
                </div>
              </Group>
            ))}
          </SimpleGrid>
        </Stack>
      </Container>
    </Box>
  );
}
