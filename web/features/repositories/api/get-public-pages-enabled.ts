import { useQuery } from '@tanstack/react-query';
import type { VersionResponse } from '#shared/schemas/system.ts';
import { badgesEnabledQueryOptions } from './get-badges-enabled.ts';

/**
 * Whether views may be published (PUBLIC_PAGES), read from `GET /version`'s `public_pages`: the
 * same cache entry as the badges' and the footer's version, one request for all.
 */
export function usePublicPagesEnabled(): boolean {
  return (
    useQuery({
      ...badgesEnabledQueryOptions,
      select: (version: VersionResponse) => version.public_pages === true,
    }).data === true
  );
}
