import { SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { GITHUB_LOGIN_PATTERN } from '../../../../../shared/schemas/repositories.ts';

/** Option labels that don't fit side by side on a phone stack instead. */
export function useNarrowScreen(): boolean {
  return useMediaQuery('(max-width: 36em)') ?? false;
}

export type ImportSource = 'starred' | 'owner';

export const IMPORT_LOGIN_MESSAGE = 'Enter a GitHub user or organisation name.';

/** The login as the server will take it, or the message to show (the server's schema message). */
export function checkImportLogin(value: string): string | null {
  return GITHUB_LOGIN_PATTERN.test(value.trim()) ? null : IMPORT_LOGIN_MESSAGE;
}

/** What to import from GitHub: a user's stars, or a user's or organisation's repositories. */
export function ImportFields({
  source,
  onSourceChange,
  login,
  onLoginChange,
  error,
  disabled,
}: {
  source: ImportSource;
  onSourceChange: (source: ImportSource) => void;
  login: string;
  onLoginChange: (login: string) => void;
  error: string | null;
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
        value={login}
        onChange={(event) => onLoginChange(event.currentTarget.value)}
        error={error}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
      />
    </Stack>
  );
}
