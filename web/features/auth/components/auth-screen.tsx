/**
 * The pieces the sign-in, sign-up and recovery screens are built from. One module on purpose:
 * every auth route loads it, so it shares their one common chunk instead of adding chunks
 * (and their names) to the first-load route table.
 */
import { Anchor, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconSend } from '@tabler/icons-react';
import { type FormEventHandler, type ReactNode, useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { REDIRECT_AFTER_SUCCESS_MS } from '#shared/constants.ts';
import type { EmailOnlyBody } from '#shared/schemas/auth.ts';
import { AuthCard } from '#web/components/auth-card.tsx';
import { InlineMessage } from '#web/components/inline-message.tsx';
import { lazyZodResolver } from '#web/lib/forms/zod-resolver.ts';

export interface AuthFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The banner above the fields (an InlineMessage), when there is one. */
  message?: ReactNode;
  /** The fields. */
  children: ReactNode;
  submitLabel: string;
  submitIcon: ReactNode;
  pending: boolean;
  disabled?: boolean;
  /** The links under the submit button. */
  footer: ReactNode;
}

/** The form of every auth card: banner, fields, a full-width submit, links. */
export function AuthForm({
  onSubmit,
  message,
  children,
  submitLabel,
  submitIcon,
  pending,
  disabled,
  footer,
}: AuthFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {message}
        {children}
        <Button type="submit" fullWidth loading={pending} disabled={disabled} leftSection={submitIcon}>
          {submitLabel}
        </Button>
        {footer}
      </Stack>
    </form>
  );
}

export interface EmailRequestFormProps {
  /** Called with the trimmed address; `reset` empties the field. */
  onSubmit: (email: string, reset: () => void) => void;
  message?: ReactNode;
  submitLabel: string;
  pending: boolean;
  footer: ReactNode;
}

// Imported when the visitor starts typing: this module is in the sign-in screen's first load,
// which does without zod (docs/decisions.md, "The first screens").
const emailValidation = lazyZodResolver<EmailOnlyBody>(() =>
  import('#shared/schemas/auth.ts').then(({ emailOnlyBodySchema }) => emailOnlyBodySchema),
);

/** An address to mail a link to (a password reset, a new verification e-mail). */
export function EmailRequestForm({ onSubmit, message, submitLabel, pending, footer }: EmailRequestFormProps) {
  const form = useForm<EmailOnlyBody>({
    initialValues: { email: '' },
    onValuesChange: emailValidation.preload,
    validate: emailValidation.validate,
  });

  return (
    <AuthForm
      onSubmit={form.onSubmit((values) => onSubmit(values.email.trim(), form.reset))}
      message={message}
      submitLabel={submitLabel}
      submitIcon={<IconSend size={18} aria-hidden />}
      pending={pending}
      footer={footer}
    >
      <TextInput
        label="Email Address"
        type="email"
        placeholder="you@example.com"
        autoComplete="email"
        required
        data-autofocus
        {...form.getInputProps('email')}
      />
    </AuthForm>
  );
}

/** A centred line offering a new verification e-mail, after `question`. */
export function ResendVerificationPrompt({ question }: { question: string }) {
  return (
    <Text size="sm" ta="center">
      {question}{' '}
      <Anchor component={Link} to="/resend-verification" fw={600}>
        Resend verification email
      </Anchor>
    </Text>
  );
}

/** While an e-mail link's token is checked with the server. */
export function CheckingLink({ title, label }: { title: string; label: string }) {
  return (
    <AuthCard title={title}>
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden />
        <Text>{label}</Text>
      </Stack>
    </AuthCard>
  );
}

/** An e-mail link did its job: the server's message, then the sign-in page after a few seconds. */
export function LinkSucceeded({ title, message }: { title: string; message: string }) {
  const navigate = useNavigate();

  useEffect(() => {
    const timer = setTimeout(() => navigate('/login'), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <AuthCard
      title={title}
      icon={<IconCircleCheck size={32} aria-hidden />}
      iconColor="green"
      subtitle={message}
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

export interface LinkFailedProps {
  title: string;
  icon?: ReactNode;
  message: ReactNode;
  /** What the visitor can do next. */
  children: ReactNode;
}

/** An e-mail link that can't be used (or not yet checked): what went wrong, then the ways on. */
export function LinkFailed({ title, icon, message, children }: LinkFailedProps) {
  return (
    <AuthCard title={title} icon={icon} iconColor="red">
      <Stack gap="md">
        <InlineMessage kind="error">{message}</InlineMessage>
        {children}
      </Stack>
    </AuthCard>
  );
}
