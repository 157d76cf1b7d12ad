import { Anchor, Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { formatDate, formatDateTime } from '#shared/format.ts';
import { type Advisory, ECOSYSTEM_LABELS } from '#shared/schemas/advisories.ts';
import type { Repository, Version } from '#shared/schemas/repositories.ts';
import { SEVERITY_LABELS } from '#web/components/health-badge.tsx';
import { SectionError, SectionLoader } from '#web/components/load-states.tsx';
import { SeverityBadge } from '#web/components/severity-badge.tsx';
import { describeError } from '#web/lib/api-errors.ts';
import { useAdvisories } from '../../../api/get-advisories.ts';
import { bySeverity } from '../../../lib/health.ts';
import { PackagesCard } from './packages-card.tsx';

/** CVE ids link to the CVE programme's record. */
const cveUrl = (id: string) => `https://www.cve.org/CVERecord?id=${encodeURIComponent(id)}`;

/**
 * The security advisories (docs/product.md#advisories): the open ones, then those fixed (by a
 * tracked release) or withdrawn, each grouped by severity, and the packages they are read for.
 */
export function AdvisoriesSection({
  repository,
  versions,
}: {
  repository: Repository;
  versions: readonly Version[];
}) {
  const advisories = useAdvisories(repository.id);
  const answer = advisories.data;
  const open = answer?.advisories.filter((advisory) => advisory.open) ?? [];
  const closed = answer?.advisories.filter((advisory) => !advisory.open) ?? [];
  return (
    <Stack gap="md" component="section" aria-labelledby="advisories-title">
      <Stack gap={2}>
        <Title order={2} size="h3" id="advisories-title">
          Security advisories
        </Title>
        {answer && (
          <Text size="sm" c="dimmed">
            {answer.read_at
              ? `Read from GitHub ${formatDateTime(answer.read_at)}: the repository’s own advisories and GitHub’s advisory database for its packages.`
              : 'Not read from GitHub yet: advisories are read with the health signals.'}
          </Text>
        )}
      </Stack>
      {answer ? (
        <>
          <AdvisoryGroups
            title={`Open (${open.length})`}
            id="advisories-open"
            advisories={open}
            empty="No open advisory."
            versions={versions}
          />
          {closed.length > 0 && (
            <AdvisoryGroups
              title={`Fixed or withdrawn (${closed.length})`}
              id="advisories-closed"
              advisories={closed}
              empty=""
              versions={versions}
            />
          )}
          <PackagesCard fullName={repository.id} packages={answer.packages} />
        </>
      ) : advisories.isError ? (
        <SectionError
          message={`Failed to load the advisories: ${describeError(advisories.error, 'Request failed')}`}
          onRetry={() => void advisories.refetch()}
        />
      ) : (
        <SectionLoader label="Loading advisories..." />
      )}
    </Stack>
  );
}

function AdvisoryGroups({
  title,
  id,
  advisories,
  empty,
  versions,
}: {
  title: string;
  id: string;
  advisories: readonly Advisory[];
  empty: string;
  versions: readonly Version[];
}) {
  return (
    <Stack gap="sm" aria-labelledby={id} component="section">
      <Title order={3} size="h4" id={id}>
        {title}
      </Title>
      {advisories.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        bySeverity(advisories).map((group) => (
          <Stack key={group.severity} gap="xs">
            <Title order={4} size="h5" id={`${id}-${group.severity}`}>
              {`${SEVERITY_LABELS[group.severity]} (${group.advisories.length})`}
            </Title>
            <Stack
              component="ul"
              gap="xs"
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-labelledby={`${id}-${group.severity}`}
            >
              {group.advisories.map((advisory) => (
                <AdvisoryItem key={advisory.ghsa_id} advisory={advisory} versions={versions} />
              ))}
            </Stack>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function ExternalLink({ href, children }: { href: string; children: string }) {
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm" fw={600}>
      <Group gap={4} wrap="nowrap" component="span" display="inline-flex">
        {children}
        <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

/** 'Fixed in v2.4.1' when a tracked version carries the fix. */
function fixedIn(advisory: Advisory, versions: readonly Version[]): string | null {
  if (advisory.fixed_in_version_id === null) return null;
  const version = versions.find((candidate) => candidate.id === advisory.fixed_in_version_id);
  return version ? `Fixed in ${version.version_number}` : 'Fixed in a tracked version';
}

function AdvisoryItem({ advisory, versions }: { advisory: Advisory; versions: readonly Version[] }) {
  const fixed = fixedIn(advisory, versions);
  return (
    <Paper component="li" withBorder radius="sm" p="sm" data-advisory={advisory.ghsa_id}>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <SeverityBadge severity={advisory.severity} />
          <ExternalLink href={advisory.url}>{advisory.ghsa_id}</ExternalLink>
          {advisory.cve_id && <ExternalLink href={cveUrl(advisory.cve_id)}>{advisory.cve_id}</ExternalLink>}
          {advisory.withdrawn_at && (
            <Badge variant="outline" color="gray" tt="none" c="var(--mantine-color-text)">
              {`Withdrawn ${formatDate(advisory.withdrawn_at)}`}
            </Badge>
          )}
          {fixed && (
            <Badge variant="outline" color="gray" tt="none" c="var(--mantine-color-text)">
              {fixed}
            </Badge>
          )}
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {advisory.summary}
        </Text>
        <List
          size="xs"
          c="dimmed"
          spacing={0}
          listStyleType="none"
          styles={{ item: { display: 'inline', marginInlineEnd: 12 } }}
        >
          {advisory.package && (
            <List.Item>{`Package: ${advisory.package.name} (${ECOSYSTEM_LABELS[advisory.package.ecosystem]})`}</List.Item>
          )}
          {advisory.vulnerable_range && <List.Item>{`Affected: ${advisory.vulnerable_range}`}</List.Item>}
          <List.Item>{`Patched: ${advisory.patched_versions ?? 'no patched version yet'}`}</List.Item>
          <List.Item>
            {advisory.source === 'repository'
              ? 'Published by the repository'
              : 'From GitHub’s advisory database'}
            {`, ${formatDate(advisory.published_at)}`}
          </List.Item>
        </List>
      </Stack>
    </Paper>
  );
}
