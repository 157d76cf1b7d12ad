import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '#web/lib/api-client.ts';

/**
 * GET /health/backups/{name}: the file needs the bearer token, so it is fetched here and
 * handed to the browser as a download (a plain link would carry no token).
 */
export async function downloadBackup(name: string): Promise<void> {
  const response = await apiFetch(`/health/backups/${encodeURIComponent(name)}`, {
    headers: { Accept: 'application/gzip' },
    timeoutMs: 300_000,
  });
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL dies.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useDownloadBackup() {
  return useMutation({ mutationFn: downloadBackup });
}
