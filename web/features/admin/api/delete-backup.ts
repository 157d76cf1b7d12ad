import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

/** DELETE /health/backups/{name} → `{ message }`. */
export async function deleteBackup(name: string): Promise<string> {
  const { message } = await apiRequest(`/health/backups/${encodeURIComponent(name)}`, messageResponseSchema, {
    method: 'DELETE',
  });
  return message;
}

export function useDeleteBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBackup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.backups }),
  });
}
