import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconMail } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { RESET_LINK_HOURS } from '#shared/constants.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { describeApiError, describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useForgotPassword } from '../api/forgot-password.ts';
import { EmailRequestForm } from '../components/auth-screen.tsx';
import { PasswordScreen } from '../components/password-off.tsx';
import { AUTH_MESSAGES, tooManyResetRequests } from '../messages.ts';

/** 429 in minutes, else the server's text or 'Failed to send password reset email'. */
export function forgotErrorMessage(error: unknown): string {
  const { kind, retryAfter } = describeApiError(error);
  if (kind === 'rate_limited') return tooManyResetRequests(retryAfter);
  return describeError(error, AUTH_MESSAGES.forgotFailed);
}

/** When password accounts are off (PASSWORD_LOGIN=off) the screen says so and points to single sign-on. */
export default function ForgotPasswordRoute() {
  return (
    <PasswordScreen title="Forgot Password">
      <ForgotPasswordScreen />
    </PasswordScreen>
  );
}

function ForgotPasswordScreen() {
  const forgot = useForgotPassword();
  const { message, showError, clear } = useMessage();
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);

  const submit = (email: string) => {
    clear();
    forgot.mutate(
      { email },
      {
        onSuccess: ({ message }) => setSent({ email, message: message || AUTH_MESSAGES.forgotSent }),
        onError: (failure) => showError(forgotErrorMessage(failure)),
      },
    );
  };

  if (sent) {
    return (
      <AuthCard
        title="Check Your Email"
        icon={<IconMail size={30} aria-hidden />}
        iconColor="indigo"
        subtitle={sent.message}
      >
        <Stack gap="md" role="status">
          <Text size="sm" ta="center">
            If an account exists for <strong>{sent.email}</strong>, a link to reset your password is on its
            way. The link expires in {RESET_LINK_HOURS} hour.
          </Text>
          <Text size="sm" ta="center" c="dimmed">
            Didn&apos;t get it within a few minutes? Check your spam or junk folder.
          </Text>
          <Button
            component={Link}
            to="/login"
            fullWidth
            leftSection={<IconArrowLeft size={18} aria-hidden />}
          >
            Back to Login
          </Button>
          {/* The form was unmounted with the address in it: it comes back empty. */}
          <Button variant="subtle" onClick={() => setSent(null)}>
            Use a different email
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot Password"
      subtitle="Enter the email address of your account and we will send you a link to reset your password."
    >
      <EmailRequestForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Send Reset Link"
        pending={forgot.isPending}
        footer={
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Back to Login
          </Anchor>
        }
      />
    </AuthCard>
  );
}
