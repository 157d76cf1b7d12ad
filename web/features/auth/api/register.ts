import { useMutation } from '@tanstack/react-query';
import { type MessageResponse, messageResponseSchema, type RegisterBody } from '#shared/schemas/auth.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /auth/register: 201 `{ message }` (the first account's message says it is the admin). */
export function postRegister(body: RegisterBody): Promise<MessageResponse> {
  return apiRequest('/auth/register', messageResponseSchema, { method: 'POST', body });
}

export function useRegister() {
  return useMutation({ mutationFn: postRegister });
}
