import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { type PublicPageListItem, publicPageListSchema } from '#shared/schemas/public-pages.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * Everything published (docs/product.md#public-pages): GET /public-pages and DELETE
 * /public-pages/{id}, one module since the removal refreshes the list.
 */
const PUBLIC_PAGES_KEY = ['admin', 'public-pages'] as const;

export const publicPagesQueryOptions = queryOptions({
  queryKey: PUBLIC_PAGES_KEY,
  queryFn: async ({ signal }): Promise<PublicPageListItem[]> =>
    (await apiRequest('/public-pages', publicPageListSchema, { signal })).pages,
});

export function usePublicPages() {
  return useQuery(publicPagesQueryOptions);
}

export function useUnpublishPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest(`/public-pages/${id}`, z.null(), { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: PUBLIC_PAGES_KEY }),
  });
}
