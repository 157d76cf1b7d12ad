import { Anchor, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { USERNAME_MAX, USERNAME_MIN, VERIFICATION_LINK_HOURS } from '#shared/constants.ts';
import { PASSWORD_MIN_LENGTH } from '#shared/password-rules.ts';
import { registerBodySchema } from '#shared/schemas/auth.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { describeError, fieldErrors } from '#web/lib/api-errors.ts';
import { confirmationCheck, zodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useRegister } from '../api/register.ts';
import { AuthForm, ResendVerificationPrompt } from '../components/auth-screen.tsx';
import { PasswordScreen } from '../components/password-off.tsx';
import { AUTH_MESSAGES } from '../messages.ts';

interface RegisterValues {
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  password: string;
  confirm_password: string;
}

const emptyValues: RegisterValues = {
  email: '',
  username: '',
  first_name: '',
  last_name: '',
  password: '',
  confirm_password: '',
};

/** When password accounts are off (PASSWORD_LOGIN=off) the screen says so and points to single sign-on. */
export default function RegisterRoute() {
  return (
    <PasswordScreen title="Create Account">
      <RegisterScreen />
    </PasswordScreen>
  );
}

function RegisterScreen() {
  const register = useRegister();
  const { message, showError, clear } = useMessage();
  const [successMessage, setSuccessMessage] = useState<string | null>(null);
  const form = useForm<RegisterValues>({
    initialValues: emptyValues,
    // Editing a field clears its error (Mantine's default, stated for the reader).
    clearInputErrorOnChange: true,
    validate: zodResolver(
      registerBodySchema,
      confirmationCheck<RegisterValues>('password', 'confirm_password', 'Passwords do not match'),
    ),
  });

  const submit = form.onSubmit(({ confirm_password: _confirmation, ...body }) => {
    clear();
    register.mutate(body, {
      onSuccess: ({ message }) => {
        form.reset();
        setSuccessMessage(message);
      },
      onError: (failure) => {
        form.setErrors(fieldErrors(failure));
        showError(
          describeError(failure, AUTH_MESSAGES.registrationFailed, { network: AUTH_MESSAGES.network }),
        );
      },
    });
  });

  if (successMessage !== null) {
    return (
      <AuthCard
        title="Registration Successful"
        icon={<IconMailCheck size={30} aria-hidden />}
        iconColor="green"
        subtitle={successMessage}
      >
        <Stack gap="md">
          {/verif/i.test(successMessage) && (
            // The server's sentence already says to check the mail; this adds only what it doesn't.
            <Text size="sm" ta="center">
              The link in it is valid for {VERIFICATION_LINK_HOURS} hours.
            </Text>
          )}
          <Button component={Link} to="/login" fullWidth>
            Go to Login
          </Button>
          <ResendVerificationPrompt question="Didn't receive the email?" />
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Create Account" subtitle="Start tracking your repositories. Free, no credit card.">
      <AuthForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Create Account"
        submitIcon={<IconUserPlus size={18} aria-hidden />}
        pending={register.isPending}
        footer={
          <Group justify="center" gap={4}>
            <Text size="sm">Already have an account?</Text>
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              Sign in
            </Anchor>
          </Group>
        }
      >
        <TextInput
          label="Email"
          type="email"
          placeholder="you@example.com"
          autoComplete="email"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <TextInput
          label="Username"
          placeholder="jane_doe"
          description={`${USERNAME_MIN}-${USERNAME_MAX} characters: letters, numbers, _ or -`}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          {...form.getInputProps('username')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            required
            {...form.getInputProps('first_name')}
          />
          <TextInput
            label="Last Name"
            autoComplete="family-name"
            required
            {...form.getInputProps('last_name')}
          />
        </SimpleGrid>
        <PasswordField
          label="Password"
          description={`At least ${PASSWORD_MIN_LENGTH} characters with uppercase, lowercase and a number; symbols @$!%*?& allowed`}
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          required
          {...form.getInputProps('confirm_password')}
        />
      </AuthForm>
    </AuthCard>
  );
}
