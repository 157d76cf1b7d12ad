import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type BulkBody, type BulkResponse, bulkResponseSchema } from '#shared/schemas/bulk.ts';
import { apiFetch, apiRequest } from '#web/lib/api-client.ts';
import { fileNameFromDisposition, saveBlob } from '#web/lib/downloads.ts';
import { defaultExportName } from './export-repositories.ts';
import { repositoryKeys } from './query-keys.ts';

/** POST /repositories/bulk: one action over the selection, a result per repository. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkBody): Promise<BulkResponse> =>
      apiRequest('/repositories/bulk', bulkResponseSchema, { method: 'POST', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.all }),
  });
}

/** POST /repositories/export `{ items }`: the selection as CSV, saved under the server's name. */
export async function exportSelection(items: string[]): Promise<string> {
  const response = await apiFetch('/repositories/export', {
    method: 'POST',
    body: { items },
    headers: { Accept: 'text/csv' },
  });
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'), defaultExportName());
  saveBlob(await response.blob(), fileName);
  return fileName;
}

export function useExportSelection() {
  return useMutation({ mutationFn: exportSelection });
}
