import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import {
  type CreateSavedViewBody,
  type SavedView,
  savedViewResponseSchema,
  savedViewsResponseSchema,
  type UpdateSavedViewBody,
} from '#shared/schemas/views.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/**
 * Saved views (docs/product.md#saved-views): GET, POST, PATCH and DELETE /views, one module
 * since the four share the key and each change refreshes the one list.
 */
const SAVED_VIEWS_KEY = ['saved-views'] as const;

export function savedViewsQueryOptions() {
  return queryOptions({
    queryKey: SAVED_VIEWS_KEY,
    queryFn: async ({ signal }) => (await apiRequest('/views', savedViewsResponseSchema, { signal })).views,
  });
}

export function useSavedViews(enabled = true) {
  return useQuery({ ...savedViewsQueryOptions(), enabled });
}

function useViewMutation<TInput>(send: (input: TInput) => Promise<SavedView | string>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED_VIEWS_KEY }),
  });
}

export function useCreateView() {
  return useViewMutation(
    async (body: CreateSavedViewBody) =>
      (await apiRequest('/views', savedViewResponseSchema, { method: 'POST', body })).view,
  );
}

export function useUpdateView() {
  return useViewMutation(
    async ({ id, ...body }: UpdateSavedViewBody & { id: number }) =>
      (await apiRequest(`/views/${id}`, savedViewResponseSchema, { method: 'PATCH', body })).view,
  );
}

export function useDeleteView() {
  return useViewMutation(
    async (id: number) =>
      (await apiRequest(`/views/${id}`, messageResponseSchema, { method: 'DELETE' })).message,
  );
}

/** The list's address query without the defaults it leaves out, to compare with a view's. */
export function normaliseViewQuery(query: string): string {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  const kept = [...params].filter(([, value]) => value !== '');
  kept.sort(([a], [b]) => a.localeCompare(b));
  return new URLSearchParams(kept).toString();
}
