import { useMutation } from '@tanstack/react-query';
import { catalogueSearchParams } from '#shared/schemas/catalogue.ts';
import type { RepositoryListQuery } from '#web/catalogue/get-repository-pages.ts';
import { apiFetch } from '#web/lib/api-client.ts';
import { fileNameFromDisposition, saveBlob } from '#web/lib/downloads.ts';

export function defaultExportName(today: Date = new Date()): string {
  return `repositories_${today.toISOString().slice(0, 10)}.csv`;
}

/**
 * GET /repositories/export with the bearer header (apiFetch), Accept text/csv, and the list's
 * search, filters and sort: what the member sees is what is exported. The file is saved as the
 * server names it (repositories_YYYY-MM-DD.csv).
 */
export async function exportRepositories(query: RepositoryListQuery = {}): Promise<string> {
  const params = catalogueSearchParams(query).toString();
  const path = params ? `/repositories/export?${params}` : '/repositories/export';
  const response = await apiFetch(path, { headers: { Accept: 'text/csv' } });
  const blob = await response.blob();
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'), defaultExportName());
  saveBlob(blob, fileName);
  return fileName;
}

export function useExportRepositories() {
  return useMutation({ mutationFn: exportRepositories });
}
