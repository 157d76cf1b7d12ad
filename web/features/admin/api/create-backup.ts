import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BackupCreatedResponse, backupCreatedResponseSchema } from '#shared/schemas/admin.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { adminKeys } from './admin-keys.ts';

export type BackupRequestKind = 'manual' | 'auto';

/** POST /health/backup (manual) or /health/backup/auto → `{ backup_path, name }`. */
export function postBackup(kind: BackupRequestKind): Promise<BackupCreatedResponse> {
  return apiRequest(kind === 'auto' ? '/health/backup/auto' : '/health/backup', backupCreatedResponseSchema, {
    method: 'POST',
    // A large catalogue takes a while to write; the client's usual 30 s is too short.
    timeoutMs: 300_000,
  });
}

export function useCreateBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postBackup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.backups }),
  });
}
