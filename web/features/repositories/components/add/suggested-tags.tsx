import { Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { SectionError } from '#web/components/load-states.tsx';
import { TagChip } from '#web/components/tag-chip.tsx';
import classes from './add.module.css';

export const SUGGESTIONS_FAILED = 'Unable to load suggested tags right now.';

/** The member's most-used tags as one-click chips, with their load and error states. */
export function SuggestedTags({
  state,
  names,
  chosen,
  onPick,
  onRetry,
  disabled,
}: {
  state: 'loading' | 'error' | 'ready';
  names: string[];
  chosen: string[];
  onPick: (tag: string) => void;
  onRetry: () => void;
  disabled: boolean;
}) {
  if (state === 'loading') {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm" c="dimmed">
          Loading suggested tags…
        </Text>
      </Group>
    );
  }
  if (state === 'error') return <SectionError message={SUGGESTIONS_FAILED} onRetry={onRetry} />;
  if (names.length === 0) return null;
  const picked = new Set(chosen.map((tag) => tag.toLowerCase()));
  return (
    <Group gap={6} role="group" aria-label="Suggested tags">
      <Text size="sm" c="dimmed">
        Suggested:
      </Text>
      {names.map((name) => {
        const already = picked.has(name.toLowerCase());
        return (
          <UnstyledButton
            key={name}
            className={classes.suggestion}
            onClick={() => onPick(name)}
            disabled={disabled || already}
            aria-label={already ? `${name} (added)` : `Add tag ${name}`}
            style={{ opacity: already ? 0.55 : 1 }}
          >
            <TagChip tag={name} size="md" />
          </UnstyledButton>
        );
      })}
    </Group>
  );
}
