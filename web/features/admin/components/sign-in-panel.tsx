import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { formatDateTime } from '#shared/format.ts';
import type { AdminSignIn } from '#shared/schemas/oidc.ts';
import { DetailList, YesNo } from '#web/components/detail-list.tsx';
import { SectionError } from '#web/components/load-states.tsx';
import { TableScrollRegion } from '#web/components/table-scroll-region.tsx';
import { useAdminSignIn } from '../api/get-admin-sign-in.ts';
import { isForbidden, loadErrorMessage } from '../lib/admin-messages.ts';

const DISCOVERY_LOOK: Record<AdminSignIn['oidc']['discovery']['status'], { color: string; label: string }> = {
  ok: { color: 'teal', label: 'Discovered' },
  error: { color: 'red', label: 'Discovery failed' },
  not_configured: { color: 'gray', label: 'Not configured' },
};

const ENDPOINTS = [
  ['authorization_endpoint', 'Authorization endpoint'],
  ['token_endpoint', 'Token endpoint'],
  ['userinfo_endpoint', 'Userinfo endpoint'],
  ['end_session_endpoint', 'End-session endpoint'],
  ['jwks_uri', 'JWKS URI'],
] as const;

function Mono({ children }: { children: string | null }) {
  return children === null ? (
    <Text span size="sm" c="dimmed">
      Not set
    </Text>
  ) : (
    <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}

/**
 * Sign-in (docs/product.md#single-sign-on): whether password login is on, the provider's
 * configuration and what discovery found, and the recent failed sign-ins with their reasons.
 */
export function SignInPanel({ onForbidden }: { onForbidden: () => void }) {
  const query = useAdminSignIn();
  const forbidden = isForbidden(query.error);
  useEffect(() => {
    if (forbidden) onForbidden();
  }, [forbidden, onForbidden]);

  if (query.isError) {
    return (
      <SectionError
        message={loadErrorMessage(query.error, 'sign-in settings')}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  if (query.isPending) return <Text c="dimmed">Loading sign-in settings...</Text>;

  const { password_login, oidc, events } = query.data;
  const { discovery } = oidc;
  const look = DISCOVERY_LOOK[discovery.status];

  return (
    <Stack gap="lg">
      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="sign-in-methods"
      >
        <Title order={2} size="h4" id="sign-in-methods" mb="xs">
          Sign-in methods
        </Title>
        <DetailList
          items={[
            { label: 'Password login', value: <YesNo value={password_login} yes="On" no="Off" /> },
            { label: 'Single sign-on (OIDC)', value: <YesNo value={oidc.enabled} yes="On" no="Off" /> },
          ]}
        />
      </Paper>

      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="sign-in-provider"
      >
        <Group justify="space-between" gap="sm" mb="xs">
          <Title order={2} size="h4" id="sign-in-provider">
            Provider
          </Title>
          <Badge color={look.color} variant="light" tt="none">
            {look.label}
          </Badge>
        </Group>
        <DetailList
          items={[
            { label: 'Issuer', value: <Mono>{oidc.issuer}</Mono> },
            { label: 'Client ID', value: <Mono>{oidc.client_id}</Mono> },
            { label: 'Scopes', value: <Mono>{oidc.scopes}</Mono> },
            {
              label: 'Admin groups',
              value: oidc.admin_groups ? (
                <Mono>{oidc.admin_groups.join(', ')}</Mono>
              ) : (
                <Text span size="sm" c="dimmed">
                  Not used: admin rights are set here
                </Text>
              ),
            },
            { label: 'Creates accounts', value: <YesNo value={oidc.create_accounts} /> },
            {
              label: 'Discovery checked',
              value: formatDateTime(discovery.checked_at, { missing: 'Not yet' }),
            },
            ...(discovery.status === 'error'
              ? [
                  {
                    label: 'Discovery error',
                    value: (
                      <Text span size="sm" c="red">
                        {discovery.error ?? 'Unknown error'}
                      </Text>
                    ),
                  },
                ]
              : []),
            ...(discovery.status === 'ok'
              ? ENDPOINTS.map(([key, label]) => ({ label, value: <Mono>{discovery[key]}</Mono> }))
              : []),
          ]}
        />
      </Paper>

      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="sign-in-failures"
      >
        <Title order={2} size="h4" id="sign-in-failures" mb="xs">
          Recent failed sign-ins
        </Title>
        {events.length === 0 ? (
          <Text c="dimmed" size="sm">
            No failed single sign-on sign-ins recently.
          </Text>
        ) : (
          <TableScrollRegion label="Recent failed sign-ins" minWidth={560}>
            <Table striped verticalSpacing="xs" aria-label="Recent failed sign-ins">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th>Detail</Table.Th>
                  <Table.Th>User</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((event) => (
                  <Table.Tr key={event.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</Table.Td>
                    <Table.Td>
                      <Text span size="sm" ff="monospace">
                        {event.reason}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{event.detail}</Table.Td>
                    <Table.Td>{event.username ?? '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScrollRegion>
        )}
      </Paper>
    </Stack>
  );
}
