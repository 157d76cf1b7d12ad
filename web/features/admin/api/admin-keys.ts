/** Query keys of the admin dashboard: one root, so sign-out and invalidation reach them all. */
export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  sync: ['admin', 'sync'] as const,
  users: ['admin', 'users'] as const,
  userList: (params: AdminUsersParams) => ['admin', 'users', params] as const,
  backups: ['admin', 'backups'] as const,
  signIn: ['admin', 'sign-in'] as const,
};

export interface AdminUsersParams {
  page: number;
  per_page: number;
  search: string;
  /** undefined: everyone; true/false: active or inactive accounts only. */
  is_active?: boolean;
}
