import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** DELETE /repositories/{id}: the member who added it, or an admin (docs/product.md#roles-and-visibility). */
export async function deleteRepository(fullName: string): Promise<string> {
  const { message } = await apiRequest(repositoryPath(fullName), messageResponseSchema, { method: 'DELETE' });
  return message;
}

export function useDeleteRepository(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRepository(fullName),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: repositoryKeys.detail(fullName) });
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.list() });
    },
  });
}
