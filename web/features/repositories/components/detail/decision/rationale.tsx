import { Anchor, Stack, Text } from '@mantine/core';
import type { Quadrants } from '#shared/schemas/decisions.ts';

/** A quadrant's name as the admin set it; the key when it was renamed away since. */
export function quadrantName(quadrants: Quadrants['quadrants'], key: string): string {
  return quadrants.find((quadrant) => quadrant.key === key)?.name ?? key;
}

/**
 * A rationale and its links. Rationales are Markdown without raw HTML (the server refuses HTML);
 * shown as the text the team wrote, line breaks kept, never as HTML.
 */
export function RationaleText({ rationale, links }: { rationale: string; links: readonly string[] }) {
  if (!rationale && links.length === 0) return null;
  return (
    <Stack gap={4}>
      {rationale && (
        <Text
          size="sm"
          component="blockquote"
          m={0}
          pl="sm"
          style={{
            borderInlineStart: '3px solid var(--mantine-color-default-border)',
            overflowWrap: 'anywhere',
            whiteSpace: 'pre-wrap',
          }}
        >
          {rationale}
        </Text>
      )}
      {links.map((link) => (
        <Anchor
          key={link}
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {link}
        </Anchor>
      ))}
    </Stack>
  );
}
