import type { AdminUserFlag } from '#shared/schemas/admin.ts';
import { apiErrorKind } from '#web/lib/api-errors.ts';

/**
 * The admin dashboard's texts (docs/product.md#admin-dashboard), in one place for the screens and their
 * tests.
 */
export const ACCESS_DENIED_MESSAGE = 'Access denied. Admin privileges required.';
export const LOAD_FAILED_MESSAGE = 'Failed to load admin data. Please try again.';

export type AdminResource = 'statistics' | 'users' | 'repositories' | 'the sync engine' | 'sign-in settings';

/** 500 or above names what failed to load; anything else is the general text. */
export function loadErrorMessage(error: unknown, resource: AdminResource): string {
  if (apiErrorKind(error) === 'unavailable') {
    return `Server error occurred while loading ${resource}. Please try again later.`;
  }
  return LOAD_FAILED_MESSAGE;
}

/** A 403 from an admin call shows the denial screen (not a sign-out). */
export function isForbidden(error: unknown): boolean {
  return apiErrorKind(error) === 'forbidden';
}

/** How each flag reads in the alert 'Failed to update user {flag}. Please try again.' */
export const FLAG_WORDS: Record<AdminUserFlag, string> = {
  is_active: 'status',
  is_verified: 'verification',
  is_admin: 'admin status',
};

export function toggleFailedMessage(flag: AdminUserFlag): string {
  return `Failed to update user ${FLAG_WORDS[flag]}. Please try again.`;
}

export const backupMessages = {
  loadFailed: (message: string) => `Error loading backups: ${message}`,
  manualFailed: (message: string) => `❌ Backup failed: ${message}`,
  autoFailed: (message: string) => `❌ Auto backup failed: ${message}`,
  manualDone: (name: string) => `✅ Backup created: ${name}`,
  autoDone: (name: string) => `✅ Automatic backup created: ${name}`,
  deleted: (name: string) => `✅ Backup ${name} deleted.`,
  deleteFailed: (message: string) => `❌ Failed to delete backup: ${message}`,
  downloadFailed: (message: string) => `❌ Failed to download backup: ${message}`,
};
