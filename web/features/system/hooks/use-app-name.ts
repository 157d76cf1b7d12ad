import { useVersion } from '../api/get-version.ts';

/** The deployment's name (APP_NAME on the server); the spec withholds any brand. */
export const DEFAULT_APP_NAME = 'Repository Tracker';

export function useAppName(): string {
  const { data } = useVersion();
  return data?.app_name || DEFAULT_APP_NAME;
}
