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
 * badges at 4.32:1). A light button's hover tint is shade 2, on which even shade 9 gives 3.8 to
 * 4.3:1 (axe flagged a hovered Unpublish at 4.04:1). These are each hue's shade 9 (or a redder
 * or greener step where that was too light) darkened until it gives 4.6:1 on shade 2, so 4.9:1
 * or more on the tint and on white. Dark mode's shade 4 already passes.
 */
const LIGHT_SCHEME_TEXT: Record<string, string> = {
  red: '#af2424',
  pink: '#a61e4d',
  grape: '#862e9c',
  violet: '#5939b8',
  indigo: '#3249b7',
  blue: '#165b9c',
  cyan: '#0a697a',
  teal: '#077050',
  green: '#237233',
  lime: '#48740a',
  yellow: '#a35400',
  orange: '#ad390b',
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
