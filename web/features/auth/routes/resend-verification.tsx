import { Anchor, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { AuthCard } from '../../../components/auth-card.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { EmailRequestForm } from '../components/auth-screen.tsx';
import { AUTH_MESSAGES } from '../messages.ts';

/**
 * SPEC lists the route without showing the screen; DESIGN §2 adds the call. The answer is the
 * same whether or not the address exists, so it is shown as is.
 */
export default function ResendVerificationRoute() {
  const resend = useResendVerification();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  const submit = (email: string, reset: () => void) => {
    setResult(null);
    resend.mutate(
      { email },
      {
        onSuccess: ({ message }) => {
          reset();
          setResult({ kind: 'success', text: message });
        },
        onError: (failure) =>
          setResult({ kind: 'error', text: describeError(failure, AUTH_MESSAGES.resendFailed) }),
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
        message={result && <FormMessage kind={result.kind}>{result.text}</FormMessage>}
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
