import { type CSSVariablesResolver, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { STORAGE_KEYS } from '../../shared/constants.ts';

/**
 * Shades picked for WCAG AA contrast: white text on indigo 7 (light) and 8 (dark) is
 * 5.0:1 and 5.7:1, where Mantine's default shade 6 gives 4.3:1.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
});

/**
 * Mantine's dimmed text (gray 6 on white, 3.3:1; dark 2 on dark 7, 4.0:1) falls below AA for
 * body-size text, and the app uses dimmed text for e-mail addresses, captions and the footer.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});

/** Follows the system setting ('auto') until the user picks light or dark in the top bar. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });
