import { Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { type BadgeKind, badgePath, OFFERED_BADGE_KINDS } from '#shared/schemas/badges.ts';
import type { Repository } from '#shared/schemas/repositories.ts';
import { useBadgesEnabled } from '../../api/get-badges-enabled.ts';

const KIND_NAMES: Record<Exclude<BadgeKind, 'status'>, string> = {
  stars: 'Stars',
  growth: 'Stars in the last 30 days',
  health: 'Health',
  release: 'Latest release',
  advisories: 'Open advisories',
};

/** The snippets of one badge: its absolute address, linking to the repository on GitHub. */
export function badgeSnippets(origin: string, repository: Pick<Repository, 'id' | 'url'>, kind: BadgeKind) {
  const image = `${origin}${badgePath(repository.id, kind)}`;
  return {
    image,
    markdown: `[![${kind}](${image})](${repository.url})`,
    html: `<a href="${repository.url}"><img src="${image}" alt="${kind}"></a>`,
  };
}

/**
 * The Overview's Badges card (docs/product.md#badges): each badge of a public repository with
 * its Markdown and HTML to copy into a README. Shown only when the server has PUBLIC_BADGES on
 * and the repository is public (a private one has no badges).
 */
export function BadgesCard({
  repository,
  origin = window.location.origin,
}: {
  repository: Repository;
  origin?: string;
}) {
  const enabled = useBadgesEnabled();
  if (!enabled || repository.private) return null;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="badges-title"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="badges-title">
          Badges
        </Title>
        <Text size="sm" c="dimmed">
          Status badges anyone can see, for the project’s README. Add <code>?style=flat-square</code> or{' '}
          <code>?style=for-the-badge</code>, or <code>?label=</code> for other words on the left.
        </Text>
        {OFFERED_BADGE_KINDS.map((kind) => {
          const snippets = badgeSnippets(origin, repository, kind);
          return (
            <Stack key={kind} gap={6}>
              <Group gap="sm">
                <Text fw={600} size="sm">
                  {KIND_NAMES[kind]}
                </Text>
                <img src={snippets.image} alt={`${KIND_NAMES[kind]} badge`} height={20} />
              </Group>
              <Snippet label="Markdown" kindName={KIND_NAMES[kind]} value={snippets.markdown} />
              <Snippet label="HTML" kindName={KIND_NAMES[kind]} value={snippets.html} />
            </Stack>
          );
        })}
      </Stack>
    </Paper>
  );
}

function Snippet({ label, kindName, value }: { label: string; kindName: string; value: string }) {
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        aria-label={`${kindName} badge, ${label}`}
        value={value}
        readOnly
        size="xs"
        onFocus={(event) => event.currentTarget.select()}
        style={{ flex: 1, minWidth: 0 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <Button
              size="xs"
              variant="light"
              color={copied ? 'teal' : undefined}
              onClick={copy}
              aria-label={`Copy the ${kindName.toLowerCase()} badge's ${label}`}
              leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
