import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '#web/lib/api-client.ts';
import { catalogueKeys } from './catalogue-keys.ts';

/**
 * GET /decisions/reviews-due: the current decisions whose review date has come, for the
 * sidebar's Radar badge and the radar screen. The app shell asks for it, so the schema is
 * imported when the call is made, keeping zod out of the first-load bundle.
 */
async function getReviewsDue(signal?: AbortSignal) {
  const { reviewsDueSchema } = await import('#shared/schemas/decisions.ts');
  return (await apiRequest('/decisions/reviews-due', reviewsDueSchema, { signal })).reviews_due;
}

/** Off until someone is signed in; read again when a decision or the catalogue changes. */
export function useReviewsDue({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: catalogueKeys.reviewsDue,
    queryFn: ({ signal }) => getReviewsDue(signal),
    enabled,
  });
}
