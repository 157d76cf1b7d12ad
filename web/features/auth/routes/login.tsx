import { Anchor, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLogin } from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense, useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { REMEMBER_ME_HOURS } from '#shared/constants.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { getApiBase } from '#web/lib/api-client.ts';
import { apiErrorKind, describeError } from '#web/lib/api-errors.ts';
import { leaveApp } from '#web/lib/auth/leave-app.ts';
import { lazyZodResolver } from '#web/lib/forms/zod-resolver.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { peekRedirectAfterLogin } from '#web/lib/storage.ts';
import { useAuthProviders } from '../api/get-auth-providers.ts';
import { type LoginVariables, useLogin } from '../api/login.ts';
import { AuthForm, CheckingLink } from '../components/auth-screen.tsx';
import { oidcStartUrl, returnToFromHash } from '../lib/oidc-session.ts';
import { AUTH_MESSAGES } from '../messages.ts';

// Only after coming back from the provider: the sign-in screen's first load does without them.
const OidcExchange = lazy(() => import('../components/oidc-exchange.tsx'));
const LinkAccount = lazy(() => import('../components/link-account.tsx'));
// Once the server says there is a provider (or an error to show).
const SsoOptions = lazy(() => import('../components/sso-options.tsx'));

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

/**
 * The sign-in screen. Single sign-on's callback comes back here (docs/product.md#single-sign-on):
 * `?oidc_code=` signs in, `?oidc_link=` asks for the account's password to link it,
 * `?oidc_error=` is shown above the form; `?local=1` stops the automatic redirect.
 */
export default function LoginRoute() {
  const [params] = useSearchParams();
  const code = params.get('oidc_code');
  const linkCode = params.get('oidc_link');
  if (code) {
    return (
      <Suspense fallback={<CheckingLink title="Sign In" label="Signing you in…" />}>
        <OidcExchange code={code} />
      </Suspense>
    );
  }
  if (linkCode) {
    return (
      <Suspense fallback={<CheckingLink title="Link Your Account" label="Checking your sign-in…" />}>
        <LinkAccount code={linkCode} />
      </Suspense>
    );
  }
  return <SignIn oidcError={params.get('oidc_error')} local={params.get('local') === '1'} />;
}

function SignIn({ oidcError, local }: { oidcError: string | null; local: boolean }) {
  const providers = useAuthProviders().data;
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

  // Until the server has said otherwise, the screen is the password sign-in it always was.
  const password = providers?.password !== false;
  const sso = providers?.oidc.enabled === true ? providers.oidc : null;
  const startUrl = oidcStartUrl(
    getApiBase(),
    returnToFromHash(peekRedirectAfterLogin()),
    form.values.remember_me,
  );
  // An error from the provider stays on screen rather than starting the same sign-in again.
  const autoRedirect = sso?.auto_redirect === true && !local && oidcError === null;
  useEffect(() => {
    if (autoRedirect) leaveApp.assign(startUrl);
  }, [autoRedirect, startUrl]);

  if (autoRedirect && sso) {
    return <CheckingLink title="Sign In" label={`Taking you to ${sso.button_text}…`} />;
  }

  const rememberBox = (
    <Checkbox
      label={`Remember me for ${REMEMBER_ME_HOURS} hours`}
      {...form.getInputProps('remember_me', { type: 'checkbox' })}
    />
  );
  const ssoOptions = (sso !== null || oidcError !== null || !password) && (
    <Suspense fallback={null}>
      <SsoOptions
        buttonText={sso?.button_text ?? null}
        startUrl={startUrl}
        oidcError={oidcError}
        password={password}
      />
    </Suspense>
  );

  if (!password) {
    return (
      <AuthCard title="Sign In" subtitle="Welcome back. Sign in to your catalogue.">
        <Stack gap="md">
          {ssoOptions}
          {sso && rememberBox}
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Sign In" subtitle="Welcome back. Sign in to your catalogue.">
      {ssoOptions}
      <AuthForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Sign In"
        submitIcon={<IconLogin size={18} aria-hidden />}
        pending={login.isPending}
        disabled={incomplete || login.isPending}
        footer={
          providers?.registration !== false && (
            <Text size="sm" ta="center">
              Don&apos;t have an account?{' '}
              <Anchor component={Link} to="/register" fw={600}>
                Create one
              </Anchor>
            </Text>
          )
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
          {rememberBox}
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
      </AuthForm>
    </AuthCard>
  );
}
