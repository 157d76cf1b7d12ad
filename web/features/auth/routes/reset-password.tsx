import { Button, Group, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconKey, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import { resetPasswordFieldSchema } from '#shared/schemas/auth.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { apiErrorKind, describeApiError, describeError } from '#web/lib/api-errors.ts';
import { confirmationCheck, zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useVerifyResetToken } from '../api/verify-reset-token.ts';
import { AuthForm, CheckingLink, LinkFailed, LinkSucceeded } from '../components/auth-screen.tsx';
import { PasswordChecklist } from '../components/password-checklist.tsx';
import { PasswordScreen } from '../components/password-off.tsx';
import { useLinkToken } from '../hooks/use-link-token.ts';
import { AUTH_MESSAGES } from '../messages.ts';

interface ResetValues {
  new_password: string;
  confirm_password: string;
}

const resetFormSchema = z.object({ new_password: resetPasswordFieldSchema });

/** A refusal (4xx) from the token check means the link is bad; anything else may heal on a retry. */
function isLinkRejected(error: unknown): boolean {
  return describeApiError(error).refused;
}

function InvalidLink({ message }: { message: string }) {
  return (
    <LinkFailed title="Invalid Reset Link" icon={<IconLinkOff size={30} aria-hidden />} message={message}>
      <Text size="sm" ta="center" c="dimmed">
        Reset links work once and expire after 1 hour.
      </Text>
      <Button component={Link} to="/forgot-password" fullWidth>
        Request New Reset Link
      </Button>
      <Button component={Link} to="/login" variant="default" fullWidth>
        Back to Login
      </Button>
    </LinkFailed>
  );
}

/** When password accounts are off (PASSWORD_LOGIN=off) the screen says so and points to single sign-on. */
export default function ResetPasswordRoute() {
  return (
    <PasswordScreen title="Reset Password">
      <ResetPasswordScreen />
    </PasswordScreen>
  );
}

function ResetPasswordScreen() {
  const token = useLinkToken();
  const check = useVerifyResetToken(token);
  const reset = useResetPassword();
  const { message, showError, clear } = useMessage();
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const form = useForm<ResetValues>({
    initialValues: { new_password: '', confirm_password: '' },
    validate: zodResolver(
      resetFormSchema,
      confirmationCheck<ResetValues>('new_password', 'confirm_password', 'Passwords do not match'),
    ),
  });

  if (token === null) return <InvalidLink message={AUTH_MESSAGES.resetMissingToken} />;

  if (doneMessage !== null) return <LinkSucceeded title="Password Reset Successful" message={doneMessage} />;

  if (check.isError) {
    if (isLinkRejected(check.error)) return <InvalidLink message={AUTH_MESSAGES.resetInvalidToken} />;
    return (
      <LinkFailed
        title="Reset Password"
        message={
          <>
            {AUTH_MESSAGES.resetCheckFailed}: {describeError(check.error, AUTH_MESSAGES.resetCheckFailed)}
          </>
        }
      >
        <Group grow>
          <Button variant="default" component={Link} to="/login">
            Back to Login
          </Button>
          <Button onClick={() => void check.refetch()} loading={check.isFetching}>
            Try Again
          </Button>
        </Group>
      </LinkFailed>
    );
  }

  if (check.isPending) return <CheckingLink title="Reset Password" label="Validating your reset link…" />;

  const submit = form.onSubmit((values) => {
    clear();
    reset.mutate(
      { token, new_password: values.new_password },
      {
        onSuccess: ({ message }) => {
          form.reset();
          setDoneMessage(message);
        },
        onError: (failure) =>
          showError(
            // The server's `bad_request` here is the used or expired token; a `validation` refusal names its field.
            apiErrorKind(failure) === 'bad_request'
              ? AUTH_MESSAGES.resetInvalidToken
              : describeError(failure, AUTH_MESSAGES.resetFailed),
          ),
      },
    );
  });

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account.">
      <AuthForm
        onSubmit={submit}
        message={
          message && (
            <InlineMessage kind={message.kind}>
              {message.text}{' '}
              {message.text === AUTH_MESSAGES.resetInvalidToken && (
                <Text component={Link} to="/forgot-password" span inherit fw={600} td="underline">
                  Request New Reset Link
                </Text>
              )}
            </InlineMessage>
          )
        }
        submitLabel="Reset Password"
        submitIcon={<IconKey size={18} aria-hidden />}
        pending={reset.isPending}
        footer={
          <Button
            component={Link}
            to="/login"
            variant="subtle"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Login
          </Button>
        }
      >
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          required
          data-autofocus
          {...form.getInputProps('new_password')}
        />
        <PasswordChecklist value={form.values.new_password} />
        <PasswordField
          label="Confirm New Password"
          autoComplete="new-password"
          required
          {...form.getInputProps('confirm_password')}
        />
      </AuthForm>
    </AuthCard>
  );
}
