import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconMail, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { RESET_LINK_HOURS } from '../../../../shared/constants.ts';
import { type EmailOnlyBody, emailOnlyBodySchema } from '../../../../shared/schemas/auth.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-errors.ts';
import { zodResolver } from '../../../lib/forms/zod-resolver.ts';
import { useForgotPassword } from '../api/forgot-password.ts';
import { AUTH_MESSAGES, tooManyResetRequests } from '../messages.ts';

/** SPEC §8: 429 in minutes, else the server's text or 'Failed to send password reset email'. */
export function forgotErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 429) return tooManyResetRequests(error.data?.retry_after);
  return describeError(error, AUTH_MESSAGES.forgotFailed);
}

export default function ForgotPasswordRoute() {
  const forgot = useForgotPassword();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const form = useForm<EmailOnlyBody>({
    initialValues: { email: '' },
    validate: zodResolver(emailOnlyBodySchema),
  });

  const submit = form.onSubmit((values) => {
    setError(null);
    const email = values.email.trim();
    forgot.mutate(
      { email },
      {
        onSuccess: ({ message }) => setSent({ email, message: message || AUTH_MESSAGES.forgotSent }),
        onError: (failure) => setError(forgotErrorMessage(failure)),
      },
    );
  });

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
          <Button
            variant="subtle"
            onClick={() => {
              setSent(null);
              form.reset();
            }}
          >
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
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {error && <FormMessage kind="error">{error}</FormMessage>}
          <TextInput
            label="Email Address"
            type="email"
            placeholder="you@example.com"
            autoComplete="email"
            required
            data-autofocus
            {...form.getInputProps('email')}
          />
          <Button
            type="submit"
            fullWidth
            loading={forgot.isPending}
            leftSection={<IconSend size={18} aria-hidden />}
          >
            Send Reset Link
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            Back to Login
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
