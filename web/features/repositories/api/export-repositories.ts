import { useMutation } from '@tanstack/react-query';
import { catalogueSearchParams } from '#shared/schemas/catalogue.ts';
import type { RepositoryListQuery } from '#web/catalogue/get-repository-pages.ts';
import { apiFetch } from '#web/lib/api-client.ts';

/** `attachment; filename="repositories_2026-08-22.csv"` (or RFC 5987's filename*) → the name. */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || fallback;
}

export function defaultExportName(today: Date = new Date()): string {
  return `repositories_${today.toISOString().slice(0, 10)}.csv`;
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
