import { Card, Container, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBrandSlack,
  IconChartPie,
  IconFileSpreadsheet,
  IconGitCompare,
  IconKey,
  IconMessages,
  IconPlaylistAdd,
  IconStar,
  IconTags,
  type TablerIcon,
} from '@tabler/icons-react';
import classes from './landing.module.css';

interface Feature {
  icon: TablerIcon;
  title: string;
  description: string;
}

/** The promised capabilities (docs/product.md#overview). */
const features: Feature[] = [
  {
    icon: IconStar,
    title: 'Repository tracking',
    description:
      'Stars, forks, commits, open issues and contributors for every repository, synced from GitHub.',
  },
  {
    icon: IconChartPie,
    title: 'Analytics and statistics',
    description: 'Totals, averages, license coverage and recent activity across your whole collection.',
  },
  {
    icon: IconTags,
    title: 'Tags and notes',
    description: 'Categorise repositories with your own tags and keep notes on why each one matters.',
  },
  {
    icon: IconGitCompare,
    title: 'Version snapshots',
    description: 'Record versions and compare the metrics of any two of them side by side.',
  },
  {
    icon: IconMessages,
    title: 'Comments',
    description: 'Timestamped comments on each repository, so your team can discuss and decide together.',
  },
  {
    icon: IconPlaylistAdd,
    title: 'Batch import',
    description: 'Paste a list of repositories, one per line, and give them shared tags in a single step.',
  },
  {
    icon: IconFileSpreadsheet,
    title: 'CSV export',
    description: 'Download your catalogue as a spreadsheet-ready CSV file whenever you need it.',
  },
  {
    icon: IconBrandSlack,
    title: 'Slack notifications',
    description: 'Optionally post a message to your Slack channel when repositories are added.',
  },
  {
    icon: IconKey,
    title: 'Your own GitHub token',
    description:
      'Add a personal access token to raise your GitHub request quota and reach private repositories.',
  },
];

export function FeaturesSection() {
  return (
    <Container
      component="section"
      size="lg"
      py={{ base: 48, sm: 80 }}
      aria-labelledby="landing-features-title"
    >
      <Stack gap="xl">
        <Stack gap="xs" ta="center" align="center">
          <Title id="landing-features-title" order={2}>
            Everything you need to keep track
          </Title>
          <Text c="dimmed" maw={640}>
            From a single bookmark to a team-wide catalogue: add repositories, enrich them, and watch how they
            change over time.
          </Text>
        </Stack>
        <SimpleGrid
          cols={{ base: 1, sm: 2, md: 3 }}
          spacing="lg"
          component="ul"
          style={{ listStyle: 'none', padding: 0 }}
        >
          {features.map(({ icon: Icon, title, description }) => (
            <li key={title}>
              <Card withBorder padding="lg" className={classes.card}>
                <Stack gap="sm">
                  <ThemeIcon size={44} radius="md" variant="light">
                    <Icon size={24} aria-hidden />
                  </ThemeIcon>
                  <Title order={3} size="h4">
                    {title}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {description}
                  </Text>
                </Stack>
              </Card>
            </li>
          ))}
        </SimpleGrid>
      </Stack>
    </Container>
  );
}
