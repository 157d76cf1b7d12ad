import { Badge, Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconCreditCardOff, IconServer, IconSparkles } from '@tabler/icons-react';
import { Link } from 'react-router';
import classes from './landing.module.css';

const promises = [
  { icon: IconSparkles, label: 'Free to use' },
  { icon: IconCreditCardOff, label: 'No credit card' },
  { icon: IconServer, label: 'Self-hosted' },
];

export function HeroSection() {
  return (
    <Box component="section" className={classes.hero} aria-labelledby="landing-hero-title">
      <Container size="lg" py={{ base: 48, sm: 96 }}>
        <Stack gap="lg" maw={760}>
          <Badge variant="light" size="lg" radius="sm" w="fit-content">
            For developers and small teams
          </Badge>
          <Title id="landing-hero-title" order={1} className={classes.headline}>
            Every repository you care about, <span className={classes.accent}>tracked in one place</span>
          </Title>
          <Text size="xl" c="dimmed">
            Collect repositories from GitHub, follow their stars, forks, commits, issues and contributors, and
            organise them with tags and notes. It's free, needs no credit card, and runs on your own server.
          </Text>
          <Group gap="sm">
            <Button
              component={Link}
              to="/register"
              size="lg"
              rightSection={<IconArrowRight size={18} aria-hidden />}
            >
              Get Started
            </Button>
            <Button component={Link} to="/login" size="lg" variant="default">
              Sign In
            </Button>
          </Group>
          <Group gap="lg" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {promises.map(({ icon: Icon, label }) => (
              <Group key={label} gap={6} component="li">
                <Icon size={18} aria-hidden color="var(--mantine-color-indigo-text)" />
                <Text size="sm" fw={500}>
                  {label}
                </Text>
              </Group>
            ))}
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}
