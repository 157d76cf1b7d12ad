import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { describeError } from '#web/lib/api-errors.ts';
import { useOidcExchange } from '../api/oidc-exchange.ts';
import { AUTH_MESSAGES } from '../messages.ts';
import { CheckingLink, LinkFailed } from './auth-screen.tsx';

/**
 * `/#/login?oidc_code=…`: the one-time code becomes the session, then the sign-in screen's guard
 * goes on as after a password sign-in. The code works once: it is sent once.
 */
export default function OidcExchange({ code }: { code: string }) {
  const exchange = useOidcExchange();
  const sent = useRef<string | null>(null);
  const { mutate } = exchange;

  useEffect(() => {
    if (sent.current === code) return;
    sent.current = code;
    mutate({ code });
  }, [code, mutate]);

  if (exchange.isError) {
    return (
      <LinkFailed
        title="Sign In"
        message={describeError(exchange.error, AUTH_MESSAGES.loginFailed, { network: AUTH_MESSAGES.network })}
      >
        <Button component={Link} to="/login" fullWidth leftSection={<IconArrowLeft size={18} aria-hidden />}>
          Back to Login
        </Button>
      </LinkFailed>
    );
  }
  return <CheckingLink title="Sign In" label="Signing you in…" />;
}
