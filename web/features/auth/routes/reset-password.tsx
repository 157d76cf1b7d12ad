import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconCircleCheck, IconKey, IconLinkOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { REDIRECT_AFTER_SUCCESS_MS } from '../../../../shared/constants.ts';
import { resetPasswordFieldSchema } from '../../../../shared/schemas/auth.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-errors.ts';
import { confirmationCheck, zodResolver } from '../../../lib/forms/zod-resolver.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { useVerifyResetToken } from '../api/verify-reset-token.ts';
import { PasswordChecklist } from '../components/password-checklist.tsx';
import { useLinkToken } from '../hooks/use-link-token.ts';
import { AUTH_MESSAGES } from '../messages.ts';

interface ResetValues {
  new_password: string;
  confirm_password: string;
}

const resetFormSchema = z.object({ new_password: resetPasswordFieldSchema });

/** A 4xx from the token check means the link is bad; anything else may heal on a retry. */
function isLinkRejected(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

function InvalidLink({ message }: { message: string }) {
  return (
    <AuthCard title="Invalid Reset Link" icon={<IconLinkOff size={30} aria-hidden />} iconColor="red">
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          {message}
        </Alert>
        <Text size="sm" ta="center" c="dimmed">
          Reset links work once and expire after 1 hour.
        </Text>
        <Button component={Link} to="/forgot-password" fullWidth>
          Request New Reset Link
        </Button>
        <Button component={Link} to="/login" variant="default" fullWidth>
          Back to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}

export default function ResetPasswordRoute() {
  const token = useLinkToken();
  const check = useVerifyResetToken(token);
  const reset = useResetPassword();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [doneMessage, setDoneMessage] = useState<string | null>(null);
  const form = useForm<ResetValues>({
    initialValues: { new_password: '', confirm_password: '' },
    validate: zodResolver(
      resetFormSchema,
      confirmationCheck<ResetValues>('new_password', 'confirm_password', 'Passwords do not match'),
    ),
  });

  useEffect(() => {
    if (doneMessage === null) return;
    const timer = setTimeout(() => navigate('/login'), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [doneMessage, navigate]);

  if (token === null) return <InvalidLink message={AUTH_MESSAGES.resetMissingToken} />;

  if (doneMessage !== null) {
    return (
      <AuthCard
        title="Password Reset Successful"
        icon={<IconCircleCheck size={32} aria-hidden />}
        iconColor="green"
        subtitle={doneMessage}
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

  if (check.isError) {
    if (isLinkRejected(check.error)) return <InvalidLink message={AUTH_MESSAGES.resetInvalidToken} />;
    return (
      <AuthCard title="Reset Password">
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert">
            {AUTH_MESSAGES.resetCheckFailed}: {describeError(check.error, AUTH_MESSAGES.resetCheckFailed)}
          </Alert>
          <Group grow>
            <Button variant="default" component={Link} to="/login">
              Back to Login
            </Button>
            <Button onClick={() => void check.refetch()} loading={check.isFetching}>
              Try Again
            </Button>
          </Group>
        </Stack>
      </AuthCard>
    );
  }

  if (check.isPending) {
    return (
      <AuthCard title="Reset Password">
        <Stack align="center" gap="sm" role="status" aria-live="polite">
          <Loader aria-hidden />
          <Text>Validating your reset link…</Text>
        </Stack>
      </AuthCard>
    );
  }

  const submit = form.onSubmit((values) => {
    setError(null);
    reset.mutate(
      { token, new_password: values.new_password },
      {
        onSuccess: ({ message }) => {
          form.reset();
          setDoneMessage(message);
        },
        onError: (failure) =>
          setError(
            isApiError(failure) && failure.status === 400 && /token/i.test(failure.message)
              ? AUTH_MESSAGES.resetInvalidToken
              : describeError(failure, AUTH_MESSAGES.resetFailed),
          ),
      },
    );
  });

  return (
    <AuthCard title="Reset Password" subtitle="Choose a new password for your account.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {error && (
            <FormMessage kind="error">
              {error}{' '}
              {error === AUTH_MESSAGES.resetInvalidToken && (
                <Text component={Link} to="/forgot-password" span inherit fw={600} td="underline">
                  Request New Reset Link
                </Text>
              )}
            </FormMessage>
          )}
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
          <Button
            type="submit"
            fullWidth
            loading={reset.isPending}
            leftSection={<IconKey size={18} aria-hidden />}
          >
            Reset Password
          </Button>
          <Button
            component={Link}
            to="/login"
            variant="subtle"
            leftSection={<IconArrowLeft size={16} aria-hidden />}
          >
            Back to Login
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
