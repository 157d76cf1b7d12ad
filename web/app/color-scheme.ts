import { STORAGE_KEYS } from '#shared/constants.ts';

/**
 * What Mantine's <ColorSchemeScript> does, run from the bundle: the server's CSP allows no
 * inline script. Setting the attribute before React renders avoids a light flash for dark
 * users; MantineProvider takes over from here.
 */
export function applyInitialColorScheme(): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORAGE_KEYS.colorScheme);
  } catch {
    // Storage blocked: follow the system setting.
  }
  const prefersDark = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const scheme = stored === 'light' || stored === 'dark' ? stored : prefersDark ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
}
