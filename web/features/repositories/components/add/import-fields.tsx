import { SegmentedControl, Stack, TextInput, type TextInputProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ImportRequest } from '../../api/add-repositories-batch.ts';

/** Option labels that don't fit side by side on a phone stack instead. */
export function useNarrowScreen(): boolean {
  return useMediaQuery('(max-width: 36em)') ?? false;
}

export type ImportSource = ImportRequest['source'];

/** What to import from GitHub: a user's stars, or a user's or organisation's repositories. */
export function ImportFields({
  source,
  onSourceChange,
  loginProps,
  disabled,
}: {
  source: ImportSource;
  onSourceChange: (source: ImportSource) => void;
  /** The login field's value, change handler and error (the form's input props). */
  loginProps: TextInputProps;
  disabled: boolean;
}) {
  const narrow = useNarrowScreen();
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="What to import"
        value={source}
        onChange={(value) => onSourceChange(value as ImportSource)}
        disabled={disabled}
        fullWidth
        orientation={narrow ? 'vertical' : 'horizontal'}
        data={[
          { value: 'starred', label: 'Stars of a user' },
          { value: 'owner', label: 'Repositories of an owner' },
        ]}
      />
      <TextInput
        label="GitHub user or organisation"
        description={
          source === 'starred'
            ? 'Every repository this user starred on GitHub (up to 1,000).'
            : 'Every public repository of this user or organisation (up to 1,000).'
        }
        placeholder={source === 'starred' ? 'torvalds' : 'vuejs'}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        {...loginProps}
      />
    </Stack>
  );
}
