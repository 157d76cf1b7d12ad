import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { type EmailOnlyBody, emailOnlyBodySchema } from '../../../../shared/schemas/auth.ts';
import { AuthCard } from '../../../components/auth-card.tsx';
import { FormMessage } from '../../../components/form-message.tsx';
import { describeError } from '../../../lib/api-errors.ts';
import { zodResolver } from '../../../lib/forms/zod-resolver.ts';
import { useResendVerification } from '../api/resend-verification.ts';
import { AUTH_MESSAGES } from '../messages.ts';

/**
 * SPEC lists the route without showing the screen; DESIGN §2 adds the call. The answer is the
 * same whether or not the address exists, so it is shown as is.
 */
export default function ResendVerificationRoute() {
  const resend = useResendVerification();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const form = useForm<EmailOnlyBody>({
    initialValues: { email: '' },
    validate: zodResolver(emailOnlyBodySchema),
  });

  const submit = form.onSubmit((values) => {
    setResult(null);
    resend.mutate(
      { email: values.email.trim() },
      {
        onSuccess: ({ message }) => {
          form.reset();
          setResult({ kind: 'success', text: message });
        },
        onError: (failure) =>
          setResult({ kind: 'error', text: describeError(failure, AUTH_MESSAGES.resendFailed) }),
      },
    );
  });

  return (
    <AuthCard
      title="Resend Verification Email"
      subtitle="Enter the email address you registered with and we will send a new verification link."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {result && <FormMessage kind={result.kind}>{result.text}</FormMessage>}
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
            loading={resend.isPending}
            leftSection={<IconSend size={18} aria-hidden />}
          >
            Send Verification Email
          </Button>
          <Group justify="center" gap={4}>
            <Text size="sm">Already verified?</Text>
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              Sign in
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
