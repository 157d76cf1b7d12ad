import { Button, List, SimpleGrid, Text } from '@mantine/core';
import { IconMailX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { VERIFICATION_LINK_HOURS } from '#shared/constants.ts';
import { verificationTokenSchema } from '#shared/schemas/auth.ts';
import { describeApiError } from '#web/lib/api-errors.ts';
import { useVerifyEmail } from '../api/verify-email.ts';
import {
  CheckingLink,
  LinkFailed,
  LinkSucceeded,
  ResendVerificationPrompt,
} from '../components/auth-screen.tsx';
import { useLinkToken } from '../hooks/use-link-token.ts';
import { AUTH_MESSAGES } from '../messages.ts';

/** The verification messages, by what went wrong (docs/product.md#verify-e-mail). */
export function verifyErrorMessage(error: unknown): string {
  const { kind, message } = describeApiError(error);
  switch (kind) {
    case 'unexpected':
      return AUTH_MESSAGES.verifyFallback;
    case 'validation':
    case 'bad_request':
      return AUTH_MESSAGES.verifyInvalid;
    case 'not_found':
      return AUTH_MESSAGES.verifyNotFound;
    case 'unavailable':
      return AUTH_MESSAGES.verifyServer;
    case 'network':
      return AUTH_MESSAGES.verifyNetwork;
    default:
      return message || AUTH_MESSAGES.verifyFallback;
  }
}

/** Present, and at least 10 characters. */
function checkToken(token: string | null): string | null {
  if (token === null) return AUTH_MESSAGES.verifyMissingToken;
  const parsed = verificationTokenSchema.safeParse(token);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? AUTH_MESSAGES.verifyFallback);
}

export default function VerifyEmailRoute() {
  const token = useLinkToken();
  const formatError = checkToken(token);
  const verification = useVerifyEmail(formatError === null ? token : null);

  if (verification.isSuccess) {
    return <LinkSucceeded title="Email Verified" message={verification.data.message} />;
  }

  const failure = formatError ?? (verification.isError ? verifyErrorMessage(verification.error) : null);
  if (failure !== null) {
    return (
      <LinkFailed title="Verification Failed" icon={<IconMailX size={30} aria-hidden />} message={failure}>
        <div>
          <Text size="sm" fw={600} mb={4}>
            Possible causes:
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>The link has expired (links are valid for {VERIFICATION_LINK_HOURS} hours).</List.Item>
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
        <ResendVerificationPrompt question="Need a new link?" />
      </LinkFailed>
    );
  }

  return <CheckingLink title="Email Verification" label="Verifying your email address…" />;
}
