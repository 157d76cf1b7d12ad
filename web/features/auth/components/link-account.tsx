import { Anchor, Button, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { PasswordField } from '#web/components/password-field.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { useOidcLink } from '../api/oidc-link.ts';
import { useOidcLinkDetails } from '../api/oidc-link-details.ts';
import { AUTH_MESSAGES } from '../messages.ts';
import { AuthForm, CheckingLink, LinkFailed } from './auth-screen.tsx';

const TITLE = 'Link Your Account';

/**
 * `/#/login?oidc_link=…`: an account with the provider's e-mail exists. Its password, given once,
 * links the provider's identity to it and signs in (docs/product.md#single-sign-on).
 */
export default function LinkAccount({ code }: { code: string }) {
  const details = useOidcLinkDetails(code);
  const link = useOidcLink();
  const { message, showError, clear } = useMessage();
  const form = useForm({ initialValues: { password: '' } });

  if (details.isPending) return <CheckingLink title={TITLE} label="Checking your sign-in…" />;
  if (details.isError) {
    return (
      <LinkFailed
        title={TITLE}
        message={describeError(details.error, AUTH_MESSAGES.loginFailed, { network: AUTH_MESSAGES.network })}
      >
        <Button component={Link} to="/login" fullWidth leftSection={<IconArrowLeft size={18} aria-hidden />}>
          Back to Login
        </Button>
      </LinkFailed>
    );
  }

  const submit = form.onSubmit(({ password }) => {
    clear();
    link.mutate(
      { code, password },
      {
        onError: (failure) => {
          form.setFieldValue('password', '');
          showError(describeError(failure, AUTH_MESSAGES.loginFailed, { network: AUTH_MESSAGES.network }));
        },
      },
    );
  });

  return (
    <AuthCard title={TITLE} subtitle="Your sign-in provider's e-mail address belongs to an existing account.">
      <AuthForm
        onSubmit={submit}
        message={message && <InlineMessage kind={message.kind}>{message.text}</InlineMessage>}
        submitLabel="Link and Sign In"
        submitIcon={<IconLink size={18} aria-hidden />}
        pending={link.isPending}
        disabled={form.values.password === '' || link.isPending}
        footer={
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login?local=1" fw={600}>
              Cancel and go back to Sign In
            </Anchor>
          </Text>
        }
      >
        <Text size="sm">
          Enter the password of <strong>{details.data.email}</strong> once. From then on single sign-on signs
          you in to this account, and the password keeps working too.
        </Text>
        <PasswordField
          label="Password"
          placeholder="The account's password"
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('password')}
        />
      </AuthForm>
    </AuthCard>
  );
}
