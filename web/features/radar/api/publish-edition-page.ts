import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { publicationResponseSchema, publicationSchema } from '#shared/schemas/public-pages.ts';
import { type VersionResponse, versionResponseSchema } from '#shared/schemas/system.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * An edition's public page (docs/product.md#public-pages), for admins: GET, POST and DELETE
 * /radar/editions/{id}/publish, and whether the instance publishes at all (`GET /version`'s
 * `public_pages`, the same cache entry as the footer's version).
 */
const publicationKey = (id: number) => ['radar-edition-publication', id] as const;

export function useEditionPublication(id: number, enabled: boolean) {
  return useQuery({
    ...queryOptions({
      queryKey: publicationKey(id),
      queryFn: async ({ signal }) =>
        (await apiRequest(`/radar/editions/${id}/publish`, publicationResponseSchema, { signal }))
          .publication,
    }),
    enabled,
  });
}

export function usePublishEditionPage(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (includeRationales: boolean) =>
      apiRequest(`/radar/editions/${id}/publish`, publicationSchema, {
        method: 'POST',
        body: { include_rationales: includeRationales },
      }),
    onSuccess: (publication) => queryClient.setQueryData(publicationKey(id), publication),
  });
}

export function useUnpublishEditionPage(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest(`/radar/editions/${id}/publish`, z.null(), { method: 'DELETE' });
    },
    onSuccess: () => queryClient.setQueryData(publicationKey(id), null),
  });
}

export function usePublicPagesEnabled(): boolean {
  return (
    useQuery({
      queryKey: ['version'],
      queryFn: ({ signal }): Promise<VersionResponse> =>
        apiRequest('/version', versionResponseSchema, { signal }),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
      select: (version: VersionResponse) => version.public_pages === true,
    }).data === true
  );
}
