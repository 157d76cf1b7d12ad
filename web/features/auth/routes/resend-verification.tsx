import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { EmailRequestForm } from '../components/auth-screen.tsx';
import { AUTH_MESSAGES } from '../messages.ts';

/**
 * Asks for a new verification link. The answer is the
 * same whether or not the address exists, so it is shown as is.
 */
export default function ResendVerificationRoute() {
  const resend = useResendVerification();
  const { message, showSuccess, showError, clear } = useMessage();

  const submit = (email: string, reset: () => void) => {
    clear();
    resend.mutate(
      { email },
      {
        onSuccess: ({ message }) => {
          reset();
          showSuccess(message);
        },
        onError: (failure) => showError(describeError(failure, AUTH_MESSAGES.resendFailed)),
      },
    );
  };

  return (
    <AuthCard
      title="Resend Verification Email"
      subtitle="Enter the email address you registered with and we will send a new verification link."
    >
      <EmailRequestForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Send Verification Email"
        pending={resend.isPending}
        footer={
          <Group justify="center" gap={4}>
            <Text size="sm">Already verified?</Text>
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              Sign in
            </Anchor>
          </Group>
        }
      />
    </AuthCard>
  );
}
