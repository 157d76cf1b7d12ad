import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  type PublicPageField,
  publicationResponseSchema,
  publicationSchema,
} from '#shared/schemas/public-pages.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * A shared view's public page (docs/product.md#public-pages): GET, POST and DELETE
 * /views/{id}/publish, one module since the three share the key.
 */
const publicationKey = (id: number) => ['saved-views', id, 'publication'] as const;

export function viewPublicationQueryOptions(id: number) {
  return queryOptions({
    queryKey: publicationKey(id),
    queryFn: async ({ signal }) =>
      (await apiRequest(`/views/${id}/publish`, publicationResponseSchema, { signal })).publication,
  });
}

export function useViewPublication(id: number, enabled: boolean) {
  return useQuery({ ...viewPublicationQueryOptions(id), enabled });
}

export function usePublishView(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fields: PublicPageField[]) =>
      apiRequest(`/views/${id}/publish`, publicationSchema, { method: 'POST', body: { fields } }),
    onSuccess: (publication) => queryClient.setQueryData(publicationKey(id), publication),
  });
}

export function useUnpublishView(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest(`/views/${id}/publish`, z.null(), { method: 'DELETE' });
    },
    onSuccess: () => queryClient.setQueryData(publicationKey(id), null),
  });
}
