import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import classes from './landing.module.css';

export function CallToAction() {
  return (
    <Container component="section" size="lg" py={{ base: 48, sm: 80 }} aria-labelledby="landing-cta-title">
      <Paper className={classes.cta} radius="lg" p={{ base: 'xl', sm: 48 }}>
        <Stack align="center" ta="center" gap="md">
          <Title id="landing-cta-title" order={2} c="white">
            Start your catalogue today
          </Title>
          <Text size="lg" c="white" maw={560}>
            Create an account in under a minute. Free, no credit card, and your data stays on your server.
          </Text>
          <Group gap="sm" justify="center">
            <Button component={Link} to="/register" size="lg" variant="white">
              Create Account
            </Button>
            <Button
              component={Link}
              to="/login"
              size="lg"
              variant="outline"
              color="white"
              styles={{ root: { borderColor: 'rgba(255, 255, 255, 0.8)' } }}
            >
              Sign In
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
