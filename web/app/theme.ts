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
 * AA contrast everywhere, not only for the primary colour:
 * - dimmed text (gray 6 on white, 3.3:1; dark 2 on dark 7, 4.0:1) is used for e-mail
 *   addresses, captions and the footer;
 * - white on filled red (red 7, 3.9:1) and green (green 7, 2.9:1) buttons and badges: shade 9
 *   gives 5.3:1 and 4.6:1;
 * - error text: red 6 on white is 3.6:1 and red 8 on dark 7 is 3.5:1; red 9 and red 5 pass.
 */
const DARK_RED_HOVER = '#a61e1e';
const DARK_GREEN_HOVER = '#237032';

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': DARK_RED_HOVER,
    '--mantine-color-red-outline': 'var(--mantine-color-red-9)',
    '--mantine-color-green-filled': 'var(--mantine-color-green-9)',
    '--mantine-color-green-filled-hover': DARK_GREEN_HOVER,
  },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': DARK_RED_HOVER,
    '--mantine-color-green-filled': 'var(--mantine-color-green-9)',
    '--mantine-color-green-filled-hover': DARK_GREEN_HOVER,
  },
});

/** Follows the system setting ('auto') until the user picks light or dark in the top bar. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.colorScheme });
