import { Alert, Anchor, Button, List, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconMailX } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { REDIRECT_AFTER_SUCCESS_MS, VERIFICATION_LINK_HOURS } from '../../../../shared/constants.ts';
import { verificationTokenSchema } from '../../../../shared/schemas/auth.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api-client.ts';
import { useVerifyEmail } from '../api/verify-email.ts';
import { useLinkToken } from '../hooks/use-link-token.ts';
import { AUTH_MESSAGES } from '../messages.ts';

/** SPEC §8's verification messages, by what went wrong. */
export function verifyErrorMessage(error: unknown): string {
  if (!isApiError(error)) return AUTH_MESSAGES.verifyFallback;
  if (error.status === 400) return AUTH_MESSAGES.verifyInvalid;
  if (error.status === 404) return AUTH_MESSAGES.verifyNotFound;
  if (error.status >= 500) return AUTH_MESSAGES.verifyServer;
  if (error.status === 0 && error.message === NETWORK_ERROR_MESSAGE) return AUTH_MESSAGES.verifyNetwork;
  return error.message || AUTH_MESSAGES.verifyFallback;
}

/** SPEC §5: present, and at least 10 characters. */
function checkToken(token: string | null): string | null {
  if (token === null) return AUTH_MESSAGES.verifyMissingToken;
  const parsed = verificationTokenSchema.safeParse(token);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? AUTH_MESSAGES.verifyFallback);
}

export default function VerifyEmailRoute() {
  const token = useLinkToken();
  const formatError = checkToken(token);
  const verification = useVerifyEmail(formatError === null ? token : null);
  const navigate = useNavigate();
  const verified = verification.isSuccess;

  useEffect(() => {
    if (!verified) return;
    const timer = setTimeout(() => navigate('/login'), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [verified, navigate]);

  if (verification.isSuccess) {
    return (
      <AuthCard
        title="Email Verified"
        icon={<IconCircleCheck size={32} aria-hidden />}
        iconColor="green"
        subtitle={verification.data.message}
      >
        <Stack gap="md" role="status">
          <Text size="sm" ta="center">
            Redirecting to the sign-in page in {REDIRECT_AFTER_SUCCESS_MS / 1000} seconds…
          </Text>
          <Button component={Link} to="/login" fullWidth>
            Go to Login
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  const failure = formatError ?? (verification.isError ? verifyErrorMessage(verification.error) : null);
  if (failure !== null) {
    return (
      <AuthCard title="Verification Failed" icon={<IconMailX size={30} aria-hidden />} iconColor="red">
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
          <div>
            <Text size="sm" fw={600} mb={4}>
              Possible causes:
            </Text>
            <List size="sm" spacing={4}>
              <List.Item>
                The link has expired (links are valid for {VERIFICATION_LINK_HOURS} hours).
              </List.Item>
              <List.Item>The link has already been used, so your email may already be verified.</List.Item>
              <List.Item>The link was copied only in part from the email.</List.Item>
              <List.Item>A newer verification email replaced this one.</List.Item>
            </List>
          </div>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Button component={Link} to="/register" variant="default">
              Register Again
            </Button>
            <Button component={Link} to="/login">
              Try to Login
            </Button>
          </SimpleGrid>
          <Text size="sm" ta="center">
            Need a new link?{' '}
            <Anchor component={Link} to="/resend-verification" fw={600}>
              Resend verification email
            </Anchor>
          </Text>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Email Verification">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text>Verifying your email address…</Text>
      </Stack>
    </AuthCard>
  );
}
