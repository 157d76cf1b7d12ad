import { Button, Loader } from '@mantine/core';
import { IconFileExport } from '@tabler/icons-react';
import { MESSAGE_CLEAR_MS } from '#shared/constants.ts';
import type { RepositoryListQuery } from '#web/catalogue/get-repository-pages.ts';
import { apiErrorKind } from '#web/lib/api-errors.ts';
import { useMessage } from '#web/lib/hooks/use-message.ts';
import { readAccessToken } from '#web/lib/storage.ts';
import { useExportRepositories } from '../api/export-repositories.ts';

export const EXPORT_STARTED = '✅ Export started. Check your downloads.';
export const EXPORT_FAILED = '❌ Failed to export repositories. Please try again.';
export const EXPORT_SIGN_IN = '❌ Please sign in to export your repositories.';

/**
 * Export: idle, exporting, then a success or error message that clears after 5 s.
 * The message is rendered by the caller (`message`), where the layout has room for it.
 */
export function useExport() {
  const exporter = useExportRepositories();
  const { message, showSuccess, showError, clear } = useMessage(MESSAGE_CLEAR_MS.export);

  /** Exports the rows `query` selects (the list's current search, filters and sort). */
  const start = (query: RepositoryListQuery = {}) => {
    clear();
    if (!readAccessToken()) {
      showError(EXPORT_SIGN_IN);
      return;
    }
    exporter.mutate(query, {
      onSuccess: () => showSuccess(EXPORT_STARTED),
      onError: (error) => showError(apiErrorKind(error) === 'unauthorized' ? EXPORT_SIGN_IN : EXPORT_FAILED),
    });
  };

  return { start, exporting: exporter.isPending, message, clear };
}

export function ExportButton({ exporting, onClick }: { exporting: boolean; onClick: () => void }) {
  return (
    <Button
      variant="default"
      leftSection={exporting ? <Loader size={16} aria-hidden /> : <IconFileExport size={18} aria-hidden />}
      onClick={onClick}
      disabled={exporting}
    >
      {exporting ? 'Exporting...' : 'Export CSV'}
    </Button>
  );
}
