import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Comment, type CommentBody, commentResponseSchema } from '#shared/schemas/repositories.ts';
import { apiRequest } from '#web/lib/api-client.ts';
import { repositoryKeys, repositoryPath } from './query-keys.ts';

/** POST /repositories/{id}/comments {comment, author} → 201 {comment}. */
export async function addComment(fullName: string, body: CommentBody): Promise<Comment> {
  const { comment } = await apiRequest(`${repositoryPath(fullName)}/comments`, commentResponseSchema, {
    method: 'POST',
    body,
  });
  return comment;
}

export function useAddComment(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommentBody) => addComment(fullName, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.detail(fullName) });
      await queryClient.invalidateQueries({ queryKey: repositoryKeys.list() });
    },
  });
}
