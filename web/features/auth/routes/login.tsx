import { Anchor, Checkbox, Group, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLogin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { REMEMBER_ME_HOURS } from '#shared/constants.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { apiErrorKind, describeError } from '#web/lib/api-errors.ts';
import { lazyZodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { type LoginVariables, useLogin } from '../api/login.ts';
import { AuthForm } from '../components/auth-screen.tsx';
import { AUTH_MESSAGES } from '../messages.ts';

/** The server's text, else 'Login failed'; a network failure has its own text. */
function loginError(error: unknown): ReactNode {
  const text = describeError(error, AUTH_MESSAGES.loginFailed, { network: AUTH_MESSAGES.network });
  // An unverified account can ask for a new link right from here.
  // The server refuses an unverified and a deactivated account alike (403 `forbidden`): the text tells them apart.
  if (apiErrorKind(error) === 'forbidden' && /verif/i.test(text)) {
    return (
      <>
        {text}{' '}
        <Anchor component={Link} to="/resend-verification" inherit fw={600}>
          Resend verification email
        </Anchor>
      </>
    );
  }
  return text;
}

// The shared schema, and zod with it, arrive once the visitor starts typing rather than with the
// screen: zod is about 26 kB of gzip the sign-in screen's first load does without
// (docs/decisions.md, "The first screens").
const loginValidation = lazyZodResolver<LoginVariables>(() =>
  import('#shared/schemas/auth.ts').then(({ loginBodySchema }) => loginBodySchema),
);

export default function LoginRoute() {
  const login = useLogin();
  const { message, showError, clear } = useMessage();
  const form = useForm<LoginVariables>({
    initialValues: { email_or_username: '', password: '', remember_me: false },
    onValuesChange: loginValidation.preload,
    validate: loginValidation.validate,
  });

  const incomplete = form.values.email_or_username.trim() === '' || form.values.password === '';

  const submit = form.onSubmit((values) => {
    clear();
    login.mutate(values, { onError: (failure) => showError(loginError(failure)) });
  });

  return (
    <AuthCard title="Sign In" subtitle="Welcome back. Sign in to your catalogue.">
      <AuthForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Sign In"
        submitIcon={<IconLogin size={18} aria-hidden />}
        pending={login.isPending}
        disabled={incomplete || login.isPending}
        footer={
          <Text size="sm" ta="center">
            Don&apos;t have an account?{' '}
            <Anchor component={Link} to="/register" fw={600}>
              Create one
            </Anchor>
          </Text>
        }
      >
        <TextInput
          label="Email or Username"
          placeholder="you@example.com or username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          {...form.getInputProps('email_or_username')}
        />
        <PasswordField
          label="Password"
          placeholder="Your password"
          autoComplete="current-password"
          {...form.getInputProps('password')}
        />
        <Group justify="space-between" gap="xs">
          <Checkbox
            label={`Remember me for ${REMEMBER_ME_HOURS} hours`}
            {...form.getInputProps('remember_me', { type: 'checkbox' })}
          />
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
      </AuthForm>
    </AuthCard>
  );
}
