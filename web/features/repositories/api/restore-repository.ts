import { type Repository, repositoryResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryPath } from './query-keys.ts';

/** POST /repositories/{id}/restore: undoes a deletion within 30 s (docs/product.md#undo-delete). */
export async function restoreRepository(fullName: string): Promise<Repository> {
  const { repository } = await apiRequest(`${repositoryPath(fullName)}/restore`, repositoryResponseSchema, {
    method: 'POST',
  });
  return repository;
}
