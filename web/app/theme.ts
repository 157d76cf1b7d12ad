import {
  type CSSVariablesResolver,
  createTheme,
  localStorageColorSchemeManager,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';
import { STORAGE_KEYS } from '#shared/constants.ts';

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
  // Mantine's close buttons are icons without a name (axe: button-name, critical). Plain objects,
  // as `Modal.extend` would give: calling it put the whole Modal in the first load.
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } satisfies Partial<NotificationProps>,
    },
  },
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

/**
 * Light-variant badges, alerts and buttons, and `c="teal"` text, draw in shade 6 in light mode:
 * 2.5 to 4.3:1 on their shade-1 tint or on white (axe flagged the Active, Verified and Configured
 * badges at 4.32:1). These give 4.8:1 or more on the tint: shade 9 where that is enough, a
 * darker step of it where not. Dark mode's shade 4 already passes.
 */
const LIGHT_SCHEME_TEXT: Record<string, string> = {
  teal: '#077755',
  green: '#247635',
  lime: '#49760a',
  yellow: '#a55500',
  orange: '#b63c0c',
  red: '#c02828',
  blue: 'var(--mantine-color-blue-9)',
  cyan: 'var(--mantine-color-cyan-9)',
  grape: 'var(--mantine-color-grape-9)',
  violet: 'var(--mantine-color-violet-9)',
  pink: 'var(--mantine-color-pink-9)',
};
const lightVariantText = Object.fromEntries(
  Object.entries(LIGHT_SCHEME_TEXT).flatMap(([hue, color]) => [
    [`--mantine-color-${hue}-light-color`, color],
    [`--mantine-color-${hue}-text`, color],
  ]),
);
const DARK_GREEN_HOVER = '#237032';

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    ...lightVariantText,
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
